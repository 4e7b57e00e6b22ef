// Carries an upstream's opaque reasoning tokens (Anthropic thinking signatures, Gemini thought signatures, Responses encrypted reasoning) through a client protocol that has no field for them, so they come back on the next turn.

/** Marks a carried value: `gh1.<origin>.<value>`. */
const CARRIED = /^gh1\.([a-z]+)\.(.*)$/s;

/** Separator of a thought signature folded into a tool call id (ids allow letters, digits, `_` and `-`). */
const TOOL_SIGNATURE = '__ts_';

/**
 * The text a client protocol gets in its own signature-like field for a value of `origin`: the value itself when the
 * client speaks that origin's protocol (`native`), else the value marked with its origin, so readCarried restores both.
 */
export function carryOpaque(value: string, origin: string | undefined, native: string): string {
  return origin === undefined || origin === native ? value : `gh1.${origin}.${value}`;
}

/** A signature-like field as a client sent it back: a carried value with its origin, or a value of the client's own protocol. */
export function readCarried(text: string, native: string): { value: string; origin: string } {
  const match = CARRIED.exec(text);
  return match ? { origin: match[1]!, value: match[2]! } : { origin: native, value: text };
}

/** A tool call id with a Gemini thought signature folded in (its text as base64url), for clients whose tool calls have no other place for it. */
export function carryToolId(id: string, thoughtSignature: string | undefined): string {
  if (thoughtSignature === undefined || id.includes(TOOL_SIGNATURE)) return id;
  return `${id}${TOOL_SIGNATURE}${Buffer.from(thoughtSignature, 'utf8').toString('base64url')}`;
}

/** A tool call id as a client sent it back: the id and the thought signature folded into it, if any. */
export function readToolId(id: string): { id: string; thoughtSignature?: string } {
  const at = id.indexOf(TOOL_SIGNATURE);
  if (at < 0) return { id };
  const signature = Buffer.from(id.slice(at + TOOL_SIGNATURE.length), 'base64url').toString('utf8');
  return { id: id.slice(0, at), ...(signature !== '' && { thoughtSignature: signature }) };
}

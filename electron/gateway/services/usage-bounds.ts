// What a call's usage can plausibly be, from its request and its answer: the upper estimate a quota reserves, and the bounds an upstream's reported usage must keep to be believed.
import type { ChatRequest } from '../protocols/neutral/chat.ts';
import { INPUT_SLACK_TOKENS, INPUT_TOKENS_PER_BYTE } from '../protocols/neutral/tokens.ts';
import type { CallContext } from '../providers/types.ts';

/** Output tokens a chat call may produce when its caller asked no limit (`max_tokens` and kin): reserved against a quota, and allowed to a reported output. */
export const DEFAULT_OUTPUT_BOUND = 16_384;

/** Input tokens allowed per image of a request, whatever its bytes (a URL is short; the image it names is not). */
export const MEDIA_PART_TOKENS = 65_536;

// The bounds on a reported count's input the translated calls check too (providers cannot import services).
export { INPUT_SLACK_TOKENS, INPUT_TOKENS_PER_BYTE };

/**
 * Tokens allowed, input and output alike, where the gateway does not hold the request whole: earlier turns the upstream
 * keeps (a Responses API `previous_response_id` or `conversation`), a realtime session's response.
 */
export const HELD_CONTEXT_TOKENS = 2_097_152;

/** What a call's request holds, for its usage bounds: its size as received, and the chat requests read from it (none for other calls). */
export interface CallSize {
  /** Bytes of the request body as received. */
  bytes: number;
  /** The chat requests the body holds (one, or one per prompt of a completions call), read only when a charge is bounded. */
  chats: () => readonly ChatRequest[];
  /** The upstream holds earlier turns the request only names: its input may exceed the request's bytes. */
  heldContext?: boolean;
}

/** The size of `call`'s request holding `chats`; undefined when its body is not at hand (a batch line, a socket). */
export function callSizeOf(call: CallContext, chats: () => readonly ChatRequest[], heldContext = false): CallSize | undefined {
  return call.rawBody ? { bytes: call.rawBody.length, chats, heldContext } : undefined;
}

/** The token counts a charge may believe. */
export interface UsageBound {
  input: number;
  output: number;
}

/** The output tokens chat requests may produce: each one's limit (or DEFAULT_OUTPUT_BOUND) for each of its choices. */
export function outputLimitOf(chats: readonly ChatRequest[]): number {
  let total = 0;
  for (const chat of chats) total += (chat.maxTokens ?? DEFAULT_OUTPUT_BOUND) * Math.max(1, chat.n ?? 1);
  return total;
}

/**
 * The most input and output tokens a call of `size` can have used, once its answer of `answerSize` (bytes or characters
 * passed to the caller) went out. Without a size, HELD_CONTEXT_TOKENS each.
 */
export function usageBoundOf(size: CallSize | undefined, answerSize: number): UsageBound {
  if (size === undefined) return { input: HELD_CONTEXT_TOKENS, output: HELD_CONTEXT_TOKENS };
  const chats = size.chats();
  let media = 0;
  for (const chat of chats) media += mediaPartsOf(chat);
  const input =
    size.bytes * INPUT_TOKENS_PER_BYTE + media * MEDIA_PART_TOKENS + INPUT_SLACK_TOKENS + (size.heldContext ? HELD_CONTEXT_TOKENS : 0);
  const output = answerSize + (chats.length > 0 ? outputLimitOf(chats) : DEFAULT_OUTPUT_BOUND);
  return { input, output };
}

/** Reported token counts, each checked: kept when within bounds, else replaced by the estimate, with the note saying so. */
export interface BoundedUsage {
  inputTokens: number;
  outputTokens: number;
  /** Set when a figure was out of bounds: the journal note of the call. */
  note?: string;
}

/**
 * `reported` counts checked against `bound`: a count absent is estimated (no note: the upstream said nothing); one that is
 * not a whole number from 0 to its bound is estimated too, and named in the note. The estimates are asked only when needed.
 */
export function boundUsage(
  reported: { inputTokens?: number | undefined; outputTokens?: number | undefined },
  bound: () => UsageBound,
  estimate: { input: () => number; output: () => number },
): BoundedUsage {
  // Straight-line checks (no closure, no list): every charge passes here.
  let limits: UsageBound | undefined;
  let odd: string | undefined;
  let inputTokens = reported.inputTokens;
  if (inputTokens === undefined) inputTokens = estimate.input();
  else if (!within(inputTokens, (limits ??= bound()).input)) {
    odd = `input tokens ${String(inputTokens)}`;
    inputTokens = estimate.input();
  }
  let outputTokens = reported.outputTokens;
  if (outputTokens === undefined) outputTokens = estimate.output();
  else if (!within(outputTokens, (limits ??= bound()).output)) {
    odd = `${odd === undefined ? '' : `${odd}, `}output tokens ${String(outputTokens)}`;
    outputTokens = estimate.output();
  }
  if (odd === undefined) return { inputTokens, outputTokens };
  return { inputTokens, outputTokens, note: `Upstream usage out of bounds (${odd}); charged the estimate.` };
}

/** True when a reported count is a whole number from 0 to `limit`. */
function within(value: number, limit: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= limit;
}

/** Images in the user turns of `chat`. */
function mediaPartsOf(chat: ChatRequest): number {
  let count = 0;
  for (const turn of chat.turns) {
    if (turn.role !== 'user' || !turn.parts) continue;
    for (const part of turn.parts) if (part.type === 'image') count += 1;
  }
  return count;
}

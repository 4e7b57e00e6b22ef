// A kept stream's answer packed for the journal from a template made once per stream and identity lengths, the call's identity (id, time, model) written in: the very text `packJournalText` gives (short lines too), without packing it line by line.
import { JOURNAL_BODY_LIMIT } from '../../../shared/journal.ts';
import { packJournalText, type PackHoles } from './journal-pack.ts';
import { writeAtHoles } from '../hole-writes.ts';

/**
 * Kept streams (by their render's id, see protocols/neutral/kept-stream.ts) the journal thread keeps a packed template
 * of: at most this many, each the answer's bytes (at most MAX_KEPT_STREAM_BYTES, 32 KiB) and its packed text. A stream
 * past them drops the one used longest ago, whose answers are then packed line by line (a template is made once per
 * stream: streams taking turns past the bound would otherwise make one on every answer).
 */
export const JOURNAL_KEPT_TEMPLATES = 32;
/**
 * Kept streams the journal thread remembers having seen (once, or made a template of), by their render's id: at most
 * this many, the one noted longest ago forgotten first. A stream's first answer makes no template: most of a test
 * suite's prompts are asked once, and a template costs about three packs to make.
 */
export const JOURNAL_KEPT_SIGHTINGS = 1024;
/** What the journal thread remembers of a kept stream (see JOURNAL_KEPT_SIGHTINGS). */
const SEEN_ONCE = 1;
const TEMPLATE_MADE = 2;

/** The first of the characters that stand for an identity's while a template is made (the private use area). */
const HOLE_FROM = 0xe000;
/** Identities longer than this (the private use area's size) get no template. */
const HOLE_CHARS = 0x1900;
/** A character of the private use area: a text with one gets no template (it could be taken for a hole's). */
const PRIVATE_USE = /[\ue000-\uf8ff]/;
/** What an identity written into a template may not hold: a line break (it would cut a line) or half a surrogate pair (the pack cuts around them). */
const UNSAFE_IDENTITY = /[\n\ud800-\udfff]/;

/** One kept stream's answers for identities of one length (in UTF-16 units and UTF-8 bytes). */
interface Template {
  readonly identityChars: number;
  readonly identityBytes: number;
  /** The answer's length in bytes. */
  readonly answerBytes: number;
  /** The answer's bytes with `written` at every hole: an answer is the template's only if it is these bytes with its identity written. */
  readonly bytes: Buffer;
  /** Where each identity starts in `bytes`. */
  readonly holes: readonly number[];
  written: string;
  /** The packed answer cut at each identity (joined with a call's own, it is that call's packed answer). */
  readonly packed: readonly string[];
  /** What the packed text's cuts require of an identity (see PackHoles `unequal`). */
  readonly unequal: readonly number[];
  /** The identity a full pack first agreed with. */
  readonly first: string;
  /**
   * Made (checked against one full pack), trusted once a full pack of another identity agreed too, or refused: a full
   * pack disagreed (which the proof rules out): its answers are packed line by line, and no template is tried again.
   */
  state: 'made' | 'trusted' | 'refused';
  /**
   * The kept render's layout (journal-kept-slots.ts) proved to give this template's bytes for every identity of its
   * lengths: its holes are the template's, and an answer made from it fitted (so the rest of their bytes are the same).
   */
  verified: object | undefined;
}

/** A kept render's layout as the journal thread has it: its bytes' holes, at the template's places when it gives its bytes. */
interface LayoutOfAnswer {
  readonly holes: readonly number[];
}

/**
 * The journal thread's templates of kept streams' packed answers. For an answer that came as a kept stream's bytes with
 * its identity, `partsOf` gives its packed text's parts from the stream's template when the bytes are the template's with
 * that identity written in and the template is trusted (`partsFrom` without the bytes, once the template is proved for
 * their layout); otherwise the caller decodes and packs as always, then tells `learn`.
 * A template packs short lines too (`packJournalText`'s `shortLines`: an Anthropic stream's 60-character `event:` and
 * `data:` lines), which a line by line pack leaves as they are because packing them costs more than storing them saves:
 * from a template the pack costs nothing, and the row is a quarter of the text. Such a stream's answers are stored as
 * they are until its template is trusted, and after it is dropped; read back, both are the same text.
 */
export class KeptPacks {
  /** The templates, the one used longest ago first. */
  private readonly templates = new Map<number, Template>();
  private readonly seen = new Map<number, typeof SEEN_ONCE | typeof TEMPLATE_MADE>();

  /** How many kept streams have a template (at most JOURNAL_KEPT_TEMPLATES). */
  get size(): number {
    return this.templates.size;
  }

  /**
   * The parts of stream `id`'s template (the text `keptPack` gives for `bytes` decoded, cut at each identity: joined with
   * `identity`, it is that text), when the template proves the bytes: the same lengths (under JOURNAL_BODY_LIMIT, so not
   * cut), the very bytes with `identity` written in, an identity every cut of the pack holds for; undefined otherwise,
   * and when the answer is not stored packed. With `layout`, the layout the bytes were made
   * from (journal-kept-slots.ts): proved with them too when it has the template's holes (see Template `verified`).
   */
  partsOf(id: number, identity: string, bytes: Uint8Array, layout?: LayoutOfAnswer): readonly string[] | undefined {
    const template = this.templates.get(id);
    if (template === undefined || template.state !== 'trusted') return undefined;
    if (!fits(template, identity, bytes)) return undefined;
    // The bytes were made from `layout`: with the template's holes, it gives the template's bytes for any identity.
    if (layout !== undefined && sameHoles(layout.holes, template.holes)) template.verified = layout;
    return this.used(id, template);
  }

  /**
   * `partsOf` for the answer made from `layout` with `identity` written in, without the answer's bytes: when stream
   * `id`'s trusted template was proved for that layout (see Template `verified`) and every cut of the pack holds for the
   * identity; undefined otherwise.
   */
  partsFrom(id: number, identity: string, layout: object): readonly string[] | undefined {
    const template = this.templates.get(id);
    if (template === undefined || template.state !== 'trusted' || template.verified !== layout) return undefined;
    if (!identityFits(template, identity)) return undefined;
    return this.used(id, template);
  }

  /** Template `id`'s parts, the template now the one used last (the last dropped at the bound). */
  private used(id: number, template: Template): readonly string[] {
    this.templates.delete(id);
    this.templates.set(id, template);
    return template.packed;
  }

  /**
   * Told what the full path made of a kept stream's answer: `text`, `bytes` decoded, and `packed`, what
   * `packJournalText` gave for it (null: stored as it is, its `keptPack` then made here when a template needs it). Notes
   * a stream's first answer; makes its template at its second, for identities of that length (once per stream: not again
   * once dropped, nor for another length); trusts the template when a later answer of another identity packs to what it
   * agrees with.
   */
  learn(id: number, identity: string, bytes: Uint8Array, text: string, packed: string | null): void {
    const template = this.templates.get(id);
    if (template !== undefined) {
      if (template.identityChars !== identity.length || template.answerBytes !== bytes.length) return;
      if (template.state !== 'made' || identity === template.first || !fits(template, identity, bytes)) return;
      template.state = agrees(template, identity, packed ?? keptPack(text)) ? 'trusted' : 'refused';
      return;
    }
    const seen = this.seen.get(id);
    if (seen !== SEEN_ONCE) {
      if (seen === undefined) this.note(id, SEEN_ONCE);
      return;
    }
    this.note(id, TEMPLATE_MADE);
    const made = templateOf(identity, bytes, text, packed ?? keptPack(text));
    if (made === undefined) return;
    if (this.templates.size >= JOURNAL_KEPT_TEMPLATES) this.templates.delete(this.templates.keys().next().value!);
    this.templates.set(id, made);
  }

  /** Remembers `what` of stream `id` (the one noted longest ago forgotten past JOURNAL_KEPT_SIGHTINGS). */
  private note(id: number, what: typeof SEEN_ONCE | typeof TEMPLATE_MADE): void {
    if (!this.seen.delete(id) && this.seen.size >= JOURNAL_KEPT_SIGHTINGS) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(id, what);
  }
}

/** What a template packs a kept stream's answer to: `packJournalText`'s text, short lines packed too. */
export function keptPack(text: string): string | null {
  return packJournalText(text, undefined, true);
}

/** A template's lengths and first identity, before its bytes, holes and packed text are known. */
function baseOf(identity: string, bytes: Uint8Array) {
  return { identityChars: identity.length, answerBytes: bytes.length, first: identity, unequal: [] as number[] };
}

/** Whether `template`'s packed text with `identity` written in is `packed`. */
function agrees(template: Template, identity: string, packed: string | null): boolean {
  return packed === template.packed.join(identity);
}

/**
 * Whether `bytes` are `template`'s bytes with `identity` written at each hole (written into the template's own bytes
 * first, when another one is there), for an identity of the template's lengths that every cut holds for.
 */
function fits(template: Template, identity: string, bytes: Uint8Array): boolean {
  if (bytes.length !== template.bytes.length || !identityFits(template, identity)) return false;
  if (identity !== template.written) {
    writeAtHoles(template.bytes, template.holes, identity, template.identityBytes);
    template.written = identity;
  }
  return template.bytes.equals(bytes);
}

/** Whether `identity` has `template`'s lengths, is safe to write in, and every cut of its pack holds for it. */
function identityFits(template: Template, identity: string): boolean {
  if (identity.length !== template.identityChars) return false;
  if (UNSAFE_IDENTITY.test(identity) || Buffer.byteLength(identity) !== template.identityBytes) return false;
  const { unequal } = template;
  for (let index = 0; index < unequal.length; index += 2) {
    const other = unequal[index + 1]!;
    if (identity.charCodeAt(unequal[index]!) === (other >= 0 ? other : identity.charCodeAt(-1 - other))) return false;
  }
  return true;
}

/** Whether two lists of holes are the same places. */
function sameHoles(first: readonly number[], second: readonly number[]): boolean {
  if (first.length !== second.length) return false;
  for (let index = 0; index < first.length; index++) if (first[index] !== second[index]) return false;
  return true;
}

/**
 * A template of `text` (the decoded `bytes`, packed to `packed` by `keptPack`) for identities of `identity`'s lengths, or undefined when
 * none can be proved. Every place `identity` stands is a hole. The text is packed again with each hole's characters
 * ones found nowhere else, which shows every cut of the pack falls where the text is the same for any identity of these
 * lengths (but for the characters PackHoles `unequal` names), and where each identity lands whole in the packed text.
 */
function templateOf(identity: string, bytes: Uint8Array, text: string, packed: string | null): Template | undefined {
  if (identity === '' || identity.length > HOLE_CHARS || UNSAFE_IDENTITY.test(identity)) return undefined;
  if (bytes.length > JOURNAL_BODY_LIMIT || PRIVATE_USE.test(text)) return undefined;
  const parts = text.split(identity);
  if (parts.length < 2) return undefined;
  // The bytes are this text's own encoding (no invalid sequence decoded to U+FFFD), so each call's are checked as bytes.
  const own = Buffer.from(text);
  if (!own.equals(bytes)) return undefined;
  const identityBytes = Buffer.byteLength(identity);
  const holes: number[] = [];
  let at = 0;
  for (const part of parts.slice(0, -1)) {
    at += Buffer.byteLength(part);
    holes.push(at);
    at += identityBytes;
  }
  const base = {
    ...baseOf(identity, bytes),
    identityBytes,
    bytes: own,
    holes,
    written: identity,
    state: 'made' as const,
    verified: undefined,
  };
  // An answer not worth packing, short lines and all, needs no template.
  if (packed === null) return undefined;
  const holeText = String.fromCharCode(...Array.from({ length: identity.length }, (_, index) => HOLE_FROM + index));
  const found: PackHoles = { from: HOLE_FROM, chars: identity.length, unequal: [], steady: true };
  const packedHoles = packJournalText(parts.join(holeText), found, true);
  if (packedHoles === null || !found.steady) return undefined;
  const packedParts = packedHoles.split(holeText);
  // A hole cut by a line's shared start or end would leave some of its characters alone.
  if (packedParts.some((part) => PRIVATE_USE.test(part))) return undefined;
  const template: Template = { ...base, packed: packedParts, unequal: found.unequal };
  return fits(template, identity, bytes) && agrees(template, identity, packed) ? template : undefined;
}

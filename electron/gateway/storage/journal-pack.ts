// A journal body's text packed line by line against the last line that began with the same character (an event stream repeats most of each event), so a streamed answer's entry is stored in a tenth of its bytes; unpacked to the very same text.

/** Starts a packed line: it holds only what differs from the last line before it that began with the same character. */
const MARK = '\u0001';
const MARK_CODE = 1;
/** A line is packed only when it shares at least this many characters with the one before (else it is kept as it is). */
const MIN_SHARED = 16;
/** Texts shorter than this are stored as they are: packing them would save too little to pay for itself. */
export const JOURNAL_PACK_MIN_CHARS = 4096;
/**
 * Texts whose non-empty lines are shorter than this on average are stored as they are: packing costs about 150 ns per
 * line on the journal thread, storing costs about 2.5 ns per character, so short lines (an Anthropic stream's
 * `event:` and `data:` pairs, 60 characters a line) cost more to pack than they save (measured: 7 KB of them, 23 µs
 * stored as they are, 40 µs packed; an OpenAI chat stream, 280 characters a line, 40 µs as it is, 28 µs packed).
 */
export const JOURNAL_PACK_MIN_LINE_CHARS = 128;
/** A packed text is kept only when it is at most this share of the text's length (else the text is stored as it is). */
const WORTH_PACKING = 0.75;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * The holes of a text packed to make a template of its packs (journal-kept-packs.ts): each place an identity goes holds
 * `chars` hole characters, the k-th of them code `from + k`, found nowhere else in the text. The pack notes where its
 * result rests on a hole's characters: a cut where a line stopped matching its predecessor at a hole character holds for
 * another identity only while that character differs from the other side (`unequal`: pairs of the hole character's
 * index and the other side, a character's code, or -1 - the index of another hole character); a line that begins with
 * one is packed by a predecessor its identity chooses (`steady` false: no template).
 */
export interface PackHoles {
  readonly from: number;
  readonly chars: number;
  readonly unequal: number[];
  steady: boolean;
}

/** Notes (see PackHoles) that the characters `mine` and `theirs` differed where a line's match with its predecessor ended. */
function noteCut(holes: PackHoles, mine: number, theirs: number): void {
  const hole = mine - holes.from;
  const other = theirs - holes.from;
  const mineIsHole = hole >= 0 && hole < holes.chars;
  const otherIsHole = other >= 0 && other < holes.chars;
  if (mineIsHole) holes.unequal.push(hole, otherIsHole ? -1 - other : theirs);
  else if (otherIsHole) holes.unequal.push(other, mine);
}

/** What the packer knows of the last line that began with a given character: its bounds, and what it shared with its own predecessor. */
interface Last {
  start: number;
  end: number;
  head: string;
  tail: string;
}

/**
 * The packed form of `text` when it is worth storing instead (long enough, its lines long enough, and at most
 * WORTH_PACKING of its length), else null. `shortLines`: packed whatever its lines' length, as a kept stream's answer is
 * once its template packs it for nothing (journal-kept-packs.ts). Lines are cut at `\n`; an empty line is kept empty. A line is compared with the last line before it that
 * began with the same character (a stream's `data:` lines with each other, its `event:` lines with each other, a
 * carriage return with none that matters): one that shares at least MIN_SHARED characters of start and end with it
 * becomes `MARK<its first character><start>,<end>,<the rest>`; any other line is kept as it is, but one that starts
 * with MARK is written as a packed line sharing nothing. A line that begins with half a surrogate pair is kept as it is,
 * and no cut falls inside a pair, so every part is well-formed text (SQLite stores it as UTF-8). `unpackJournalText`
 * gives back `text` exactly.
 */
export function packJournalText(text: string, holes?: PackHoles, shortLines = false): string | null {
  if (text.length < JOURNAL_PACK_MIN_CHARS) return null;
  // Judged on the text's first JOURNAL_PACK_MIN_CHARS characters: a bounded look, and a stream's lines are alike.
  if (!shortLines && JOURNAL_PACK_MIN_CHARS < JOURNAL_PACK_MIN_LINE_CHARS * nonEmptyLines(text, JOURNAL_PACK_MIN_CHARS)) return null;
  const packed = packLines(text, holes);
  return packed.length <= text.length * WORTH_PACKING ? packed : null;
}

/** How many lines (cut at `\n`) of the first `length` characters of `text` are not empty. */
function nonEmptyLines(text: string, length: number): number {
  let count = 0;
  let start = 0;
  while (start < length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 || newline > length ? length : newline;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

/** `text` packed line by line, whatever it saves (see `packJournalText`); `holes` told where its result rests on them. */
export function packLines(text: string, holes?: PackHoles): string {
  let packed = '';
  /** By first character: the last line that began with it (see `Last`); the next such line is first tried against what that one shared, by string equality (native), then by character past it. */
  const lasts = new Map<number, Last>();
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const first = text.charCodeAt(start);
    if (end > start && (isHighSurrogate(first) || isLowSurrogate(first))) packed += text.slice(start, end);
    else if (end > start) {
      if (holes !== undefined && first - holes.from >= 0 && first - holes.from < holes.chars) holes.steady = false;
      const last = lasts.get(first);
      const ref: Last = last ?? { start, end: start, head: '', tail: '' };
      const shorter = Math.min(end - start, ref.end - ref.start);
      let shared = sharedPart(text, start, ref.head, shorter, true);
      while (shared < shorter && text.charCodeAt(start + shared) === text.charCodeAt(ref.start + shared)) shared++;
      if (holes !== undefined && shared < shorter) noteCut(holes, text.charCodeAt(start + shared), text.charCodeAt(ref.start + shared));
      if (shared > 0 && isHighSurrogate(text.charCodeAt(start + shared - 1))) shared--;
      const rest = shorter - shared;
      let sharedEnd = sharedPart(text, end, ref.tail, rest, false);
      while (sharedEnd < rest && text.charCodeAt(end - 1 - sharedEnd) === text.charCodeAt(ref.end - 1 - sharedEnd)) sharedEnd++;
      if (holes !== undefined && sharedEnd < rest)
        noteCut(holes, text.charCodeAt(end - 1 - sharedEnd), text.charCodeAt(ref.end - 1 - sharedEnd));
      if (sharedEnd > 0 && isLowSurrogate(text.charCodeAt(end - sharedEnd))) sharedEnd--;
      if (shared !== ref.head.length) ref.head = text.slice(start, start + shared);
      if (sharedEnd !== ref.tail.length) ref.tail = text.slice(end - sharedEnd, end);
      if (shared + sharedEnd >= MIN_SHARED || first === MARK_CODE)
        packed += `${MARK}${text[start]!}${shared},${sharedEnd},${text.slice(start + shared, end - sharedEnd)}`;
      else packed += text.slice(start, end);
      ref.start = start;
      ref.end = end;
      if (!last) lasts.set(first, ref);
    }
    if (newline === -1) break;
    packed += '\n';
    start = end + 1;
  }
  return packed;
}

/**
 * How many characters the line starting (or, `front` false, ending) at `at` shares with `known`'s start (or end), at
 * most `most`: `known` is what the line before shared with its own predecessor, so is a part of the last line; tried
 * whole, then a little shorter, by string equality. Zero when none of those lengths matches (the caller compares on).
 */
function sharedPart(text: string, at: number, known: string, most: number, front: boolean): number {
  const longest = Math.min(known.length, most);
  for (let length = longest; length >= MIN_SHARED && length >= longest - 32; length -= 8) {
    const part = length === known.length ? known : front ? known.slice(0, length) : known.slice(known.length - length);
    if ((front ? text.slice(at, at + length) : text.slice(at - length, at)) === part) return length;
  }
  return 0;
}

/** The text `packJournalText` packed. */
export function unpackJournalText(packed: string): string {
  let text = '';
  /** By first character: the last line that began with it. */
  const lasts = new Map<number, string>();
  let start = 0;
  for (;;) {
    const newline = packed.indexOf('\n', start);
    const end = newline === -1 ? packed.length : newline;
    if (packed.charCodeAt(start) === MARK_CODE && end > start) {
      const first = packed.charCodeAt(start + 1);
      const comma = packed.indexOf(',', start + 2);
      const second = packed.indexOf(',', comma + 1);
      const shared = Number(packed.slice(start + 2, comma));
      const sharedEnd = Number(packed.slice(comma + 1, second));
      const last = lasts.get(first) ?? '';
      const line = last.slice(0, shared) + packed.slice(second + 1, end) + last.slice(last.length - sharedEnd);
      lasts.set(first, line);
      text += line;
    } else if (end > start) {
      const line = packed.slice(start, end);
      lasts.set(packed.charCodeAt(start), line);
      text += line;
    }
    if (newline === -1) break;
    text += '\n';
    start = end + 1;
  }
  return text;
}

// A journal body's text packed line by line against the line before it (an event stream repeats most of each event), so a streamed answer's entry is stored in a tenth of its bytes; unpacked to the very same text.

/** Starts a packed line: it holds only what differs from the last non-empty line before it. */
const MARK = '\u0001';
const MARK_CODE = 1;
/** A line is packed only when it shares at least this many characters with the one before (else it is kept as it is). */
const MIN_SHARED = 16;
/** Texts shorter than this are stored as they are: packing them would save too little to pay for itself. */
export const JOURNAL_PACK_MIN_CHARS = 2048;
/** A packed text is kept only when it is at most this share of the text's length (else the text is stored as it is). */
const WORTH_PACKING = 0.75;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * The packed form of `text` when it is worth storing instead (long enough, and at most WORTH_PACKING of its length),
 * else null. Lines are cut at `\n`; an empty line is kept empty; a line that shares at least MIN_SHARED characters of
 * start and end with the last non-empty line before it becomes `MARK<start>,<end>,<the rest>`; any other line is kept
 * as it is, but one that starts with MARK is written as a packed line sharing nothing. No cut falls inside a surrogate
 * pair, so every part is well-formed text (SQLite stores it as UTF-8). `unpackJournalText` gives back `text` exactly.
 */
export function packJournalText(text: string): string | null {
  if (text.length < JOURNAL_PACK_MIN_CHARS) return null;
  let packed = '';
  // The last non-empty line (its bounds in `text`), and the start and end it shared with the one before it: the next
  // line is first tried against those by string equality (native), then by character only past them.
  let refStart = 0;
  let refEnd = 0;
  let head = '';
  let tail = '';
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end > start) {
      const shorter = Math.min(end - start, refEnd - refStart);
      let shared = sharedPart(text, start, head, shorter, true);
      while (shared < shorter && text.charCodeAt(start + shared) === text.charCodeAt(refStart + shared)) shared++;
      if (shared > 0 && isHighSurrogate(text.charCodeAt(start + shared - 1))) shared--;
      const rest = shorter - shared;
      let sharedEnd = sharedPart(text, end, tail, rest, false);
      while (sharedEnd < rest && text.charCodeAt(end - 1 - sharedEnd) === text.charCodeAt(refEnd - 1 - sharedEnd)) sharedEnd++;
      if (sharedEnd > 0 && isLowSurrogate(text.charCodeAt(end - sharedEnd))) sharedEnd--;
      if (shared !== head.length) head = text.slice(start, start + shared);
      if (sharedEnd !== tail.length) tail = text.slice(end - sharedEnd, end);
      if (shared + sharedEnd >= MIN_SHARED) packed += `${MARK}${shared},${sharedEnd},${text.slice(start + shared, end - sharedEnd)}`;
      else if (text.charCodeAt(start) === MARK_CODE) packed += `${MARK}0,0,${text.slice(start, end)}`;
      else packed += text.slice(start, end);
      refStart = start;
      refEnd = end;
    }
    if (newline === -1) break;
    packed += '\n';
    start = end + 1;
  }
  return packed.length <= text.length * WORTH_PACKING ? packed : null;
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
  let last = '';
  let start = 0;
  for (;;) {
    const newline = packed.indexOf('\n', start);
    const end = newline === -1 ? packed.length : newline;
    if (packed.charCodeAt(start) === MARK_CODE && end > start) {
      const first = packed.indexOf(',', start);
      const second = packed.indexOf(',', first + 1);
      const shared = Number(packed.slice(start + 1, first));
      const sharedEnd = Number(packed.slice(first + 1, second));
      last = last.slice(0, shared) + packed.slice(second + 1, end) + last.slice(last.length - sharedEnd);
      text += last;
    } else if (end > start) {
      last = packed.slice(start, end);
      text += last;
    }
    if (newline === -1) break;
    text += '\n';
    start = end + 1;
  }
  return text;
}

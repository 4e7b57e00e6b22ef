// Finds the tokens of a text in one pass over its code units, from per-code-point tables: linear and stack-safe for any text, unlike a regular expression over an unbroken word of millions of characters.

/** What a code point is to the token estimate (see `TOKEN_PATTERN` in tokens.ts): a token of its own (punctuation, symbols, emoji, control characters, a lone surrogate), part of a word (`\p{L}`, `\p{N}`, `\p{M}` or `_`), or whitespace (`\s`, no token). */
export const CharKind = { Mark: 0, Word: 1, Space: 2 } as const;
export type CharKind = (typeof CharKind)[keyof typeof CharKind];

const WORD_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;
const SPACE_CHAR = /^\s$/u;

/** One table of 65,536 kinds per Unicode plane, each built by the two patterns above the first time a text uses that plane. */
const planes: (Uint8Array | undefined)[] = [];

function planeOf(plane: number): Uint8Array {
  let table = planes[plane];
  if (table) return table;
  table = new Uint8Array(0x10000);
  const base = plane * 0x10000;
  for (let offset = 0; offset < 0x10000; offset += 1) {
    const code = base + offset;
    // A surrogate code unit is never paired here: alone it is a mark, as the pattern reads it.
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    table[offset] = WORD_CHAR.test(char) ? CharKind.Word : SPACE_CHAR.test(char) ? CharKind.Space : CharKind.Mark;
  }
  planes[plane] = table;
  return table;
}

/** The kind of one code point. */
export function kindOfCodePoint(code: number): CharKind {
  return planeOf(code >>> 16)[code & 0xffff] as CharKind;
}

/**
 * The end of the first token of `text` at or after `from` (whitespace before it skipped), or -1 when only whitespace
 * is left. A token is a run of word characters or one mark: the matches of `TOKEN_PATTERN`, found in one pass over the
 * code units without a regular expression (`for (let end = nextTokenEnd(text, 0); end >= 0; end = nextTokenEnd(text, end))`
 * visits every token).
 */
export function nextTokenEnd(text: string, from: number): number {
  const bmp = planeOf(0);
  const length = text.length;
  let inWord = false;
  let index = from;
  while (index < length) {
    const code = text.charCodeAt(index);
    let kind: number = bmp[code]!;
    let units = 1;
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        kind = kindOfCodePoint(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
        units = 2;
      }
    }
    if (kind === CharKind.Word) inWord = true;
    else if (inWord) return index;
    else if (kind === CharKind.Mark) return index + units;
    index += units;
  }
  return inWord ? length : -1;
}

// The encoded forms of a secret a reader could decode (raw UTF-8, JSON escapes, percent-encoding, base64 and base64url at each alignment), compiled into one flat byte matcher.

/** A secret to hide and the text written where it was found. */
export interface HiddenSecret {
  secret: string;
  hint: string;
}

/** Base64 forms are matched only when their key-determined middle is at least this long (a shorter one would match ordinary text). */
export const MIN_BASE64_MIDDLE = 12;

/** One byte an encoded form may have at a step: either of two bytes (a hex digit in either case), the same twice when one. */
type Step = readonly [number, number];
/** One way to write one character: its steps in order. */
type Form = readonly Step[];
/** Every way to write one character of an encoded secret. */
type Position = readonly Form[];

/** What a step leads to once its byte is read: the next step of its form, the first steps of the next position, or a whole match. */
export const NEXT_STEP = 0;
export const NEXT_POSITION = 1;
export const MATCHED = 2;

/** The matcher compiled from the secrets: every step of every form, flattened. */
export interface Machine {
  /** The two bytes each step accepts. */
  byteA: Uint8Array;
  byteB: Uint8Array;
  /** NEXT_STEP, NEXT_POSITION or MATCHED per step. */
  then: Uint8Array;
  /** NEXT_POSITION: the index in `firsts`; MATCHED: the index of the secret. */
  target: Int32Array;
  /** The first steps of each position after the first. */
  firsts: Int32Array[];
  /** The first steps of a match that accept each byte value. */
  startsOn: Int32Array[];
  /**
   * For each byte value some match starts on (`startsOn` not empty), its row in `follows` (from 1); 0 for the others: the
   * scan between matches reads one byte here. 16 bits: rows run to 256 if every byte value started a match, which a byte
   * array would wrap to 0 (a start byte then never read). Today's forms start on at most 179 byte values (a first
   * character's first UTF-8 byte, 0x00–0x7F or 0xC2–0xF4, and `\` and `%`), but the table must not rely on it.
   */
  rowOf: Uint16Array;
  /**
   * Row by row (256 bytes each, row 0 unused), 1 for each byte that some match started on the row's byte can read next
   * (or every byte, when one such match is whole already), else 0: a match started before a byte it cannot read ends
   * there, having found nothing, so a scan that sees both bytes need not start it.
   */
  follows: Uint8Array;
  /** The longest encoded form, in bytes: the most a stream ever holds back. */
  longest: number;
  hints: Uint8Array[];
}

const encoder = new TextEncoder();
const HEX = '0123456789abcdef';

function one(byte: number): Step {
  return [byte, byte];
}

/** The steps of ASCII `text`, hex letters matched in either case when `hexFolded`. */
function asciiSteps(text: string, hexFolded: boolean): Step[] {
  return [...text].map((char) => {
    const lower = char.charCodeAt(0);
    return hexFolded && /[a-f]/.test(char) ? [lower, char.toUpperCase().charCodeAt(0)] : one(lower);
  });
}

function hex(value: number, digits: number): string {
  let out = '';
  for (let shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += HEX[(value >> shift) & 15];
  return out;
}

/** JSON's short escapes of the characters that have one. */
const SHORT_ESCAPES: Record<string, string> = {
  '/': '\\/',
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Every way to write `char` (one code point): its UTF-8 bytes, its JSON `\uXXXX` escape(s) and short escape, its percent-encoding. */
function formsOf(char: string): Form[] {
  const bytes = [...encoder.encode(char)];
  const forms: Form[] = [bytes.map(one)];
  const units = [...Array(char.length).keys()].map((index) => `\\u${hex(char.charCodeAt(index), 4)}`).join('');
  forms.push(asciiSteps(units, true));
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) forms.push(asciiSteps(short, false));
  forms.push(asciiSteps(bytes.map((byte) => `%${hex(byte, 2)}`).join(''), true));
  return forms;
}

/** The positions of `secret` written as text: each character in any of its forms, mixed freely. */
function textPattern(secret: string): Position[] {
  return [...secret].map(formsOf);
}

const BASE64_URL: Record<string, string> = { '+': '-', '/': '_' };

/**
 * The positions of `secret`'s base64 (or base64url) at each of the three byte alignments it can have inside a longer
 * encoded text: only the middle characters, which the secret's bytes alone decide. Each character may be written as text
 * is (a `/` JSON-escaped, a `+` percent-encoded).
 */
function base64Patterns(secret: string): Position[][] {
  const bytes = encoder.encode(secret);
  const patterns: Position[][] = [];
  for (let align = 0; align < 3; align++) {
    const padded = new Uint8Array(align + bytes.length);
    padded.set(bytes, align);
    const text = toBase64(padded);
    const first = Math.ceil((8 * align) / 6);
    const last = Math.floor((8 * padded.length) / 6);
    const middle = text.slice(first, last);
    if (middle.length < MIN_BASE64_MIDDLE) continue;
    patterns.push(
      [...middle].map((char) => {
        const url = BASE64_URL[char];
        return url === undefined ? formsOf(char) : [...formsOf(char), ...formsOf(url)];
      }),
    );
  }
  return patterns;
}

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 3) {
    const word = (bytes[at]! << 16) | ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - at) * 8) / 6));
    for (let index = 0; index < chars; index++) out += BASE64_DIGITS[(word >> (18 - 6 * index)) & 63];
  }
  return out;
}

/** Matchers already compiled, by their secrets and hints: a relayed call's scrubber is made per call, its channel's key rarely changes. */
const COMPILED = new Map<string, Machine>();

/** Most matchers kept (the oldest is dropped past it). */
const COMPILED_KEPT = 64;

/** The matcher of `hidden`, compiled once per set of secrets and their hints (a matcher is read-only once built). */
export function compiled(hidden: readonly HiddenSecret[]): Machine {
  const key = JSON.stringify(hidden.map(({ secret, hint }) => [secret, hint]));
  let machine = COMPILED.get(key);
  if (!machine) {
    machine = compile(hidden);
    if (COMPILED.size >= COMPILED_KEPT) COMPILED.delete(COMPILED.keys().next().value!);
    COMPILED.set(key, machine);
  }
  return machine;
}

/** Compiles the patterns of every secret into one flat matcher. */
export function compile(hidden: readonly HiddenSecret[]): Machine {
  const byteA: number[] = [];
  const byteB: number[] = [];
  const then: number[] = [];
  const target: number[] = [];
  const firsts: Int32Array[] = [];
  const startsOn: number[][] = Array.from({ length: 256 }, () => []);
  let longest = 0;
  hidden.forEach(({ secret }, who) => {
    if (secret === '') return;
    for (const pattern of [textPattern(secret), ...base64Patterns(secret)]) {
      // Laid out last position first, so each form knows where its next position's first steps are.
      let nextFirsts = -1;
      let length = 0;
      for (let index = pattern.length - 1; index >= 0; index--) {
        const starts: number[] = [];
        for (const form of pattern[index]!) {
          starts.push(byteA.length);
          form.forEach(([a, b], step) => {
            byteA.push(a);
            byteB.push(b);
            const last = step === form.length - 1;
            then.push(!last ? NEXT_STEP : index === pattern.length - 1 ? MATCHED : NEXT_POSITION);
            target.push(!last ? 0 : index === pattern.length - 1 ? who : nextFirsts);
          });
        }
        length += Math.max(...pattern[index]!.map((form) => form.length));
        if (index > 0) {
          firsts.push(Int32Array.from(starts));
          nextFirsts = firsts.length - 1;
        } else {
          for (const start of starts) {
            startsOn[byteA[start]!]!.push(start);
            if (byteB[start] !== byteA[start]) startsOn[byteB[start]!]!.push(start);
          }
        }
      }
      longest = Math.max(longest, length);
    }
  });
  return {
    byteA: Uint8Array.from(byteA),
    byteB: Uint8Array.from(byteB),
    then: Uint8Array.from(then),
    target: Int32Array.from(target),
    firsts,
    startsOn: startsOn.map((steps) => Int32Array.from(steps)),
    ...followsOf(startsOn, byteA, byteB, then, target, firsts),
    longest,
    hints: hidden.map(({ hint }) => encoder.encode(hint)),
  };
}

/**
 * `rowOf` and `follows` of a matcher (see Machine): what reading a start byte from no partial match leaves expected next,
 * as the scrubber's own step does (a step's next step, the first steps of the next position, or a whole match).
 */
function followsOf(
  startsOn: readonly (readonly number[])[],
  byteA: readonly number[],
  byteB: readonly number[],
  then: readonly number[],
  target: readonly number[],
  firsts: readonly Int32Array[],
): { rowOf: Uint16Array; follows: Uint8Array } {
  const rowOf = new Uint16Array(256);
  let rows = 0;
  for (let byte = 0; byte < 256; byte++) if (startsOn[byte]!.length > 0) rowOf[byte] = ++rows;
  const follows = new Uint8Array((rows + 1) * 256);
  for (let byte = 0; byte < 256; byte++) {
    const row = rowOf[byte]! * 256;
    if (row === 0) continue;
    for (const start of startsOn[byte]!) {
      const kind = then[start];
      if (kind === MATCHED) follows.fill(1, row, row + 256);
      const expected = kind === NEXT_STEP ? [start + 1] : kind === NEXT_POSITION ? firsts[target[start]!]! : [];
      for (const step of expected) {
        follows[row + byteA[step]!] = 1;
        follows[row + byteB[step]!] = 1;
      }
    }
  }
  return { rowOf, follows };
}

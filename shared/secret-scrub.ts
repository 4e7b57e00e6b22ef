// Finds secrets in bytes in every encoding a reader could decode (raw UTF-8, JSON escapes, percent-encoding, base64 and base64url) and writes a hint instead, over a whole text or a stream cut anywhere.

/** A secret to hide and the text written where it was found. */
export interface HiddenSecret {
  secret: string;
  hint: string;
}

/** Base64 forms are matched only when their key-determined middle is at least this long (a shorter one would match ordinary text). */
export const MIN_BASE64_MIDDLE = 12;

/** One byte an encoded form may have at a step: either of two bytes (a hex digit in either case, `+` or `-` in base64), the same twice when one. */
type Step = readonly [number, number];
/** One way to write one character: its steps in order. */
type Form = readonly Step[];
/** Every way to write one character of an encoded secret. */
type Position = readonly Form[];

/** What a step leads to once its byte is read: the next step of its form, the first steps of the next position, or a whole match. */
const NEXT_STEP = 0;
const NEXT_POSITION = 1;
const MATCHED = 2;

/** The matcher compiled from the secrets: every step of every form, flattened. */
interface Machine {
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

/** Compiles the patterns of every secret into one flat matcher. */
function compile(hidden: readonly HiddenSecret[]): Machine {
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
    longest,
    hints: hidden.map(({ hint }) => encoder.encode(hint)),
  };
}

const EMPTY = new Uint8Array(0);

/**
 * Scrubs a byte stream cut anywhere: `pass` gives back at once every byte that cannot be the start of an encoded secret
 * (with each secret found replaced by its hint) and holds back only a tail that still could be (never longer than the
 * longest encoded form); `end` gives the rest. Each byte is read once, against the partial matches alive at it (at most one
 * per step of the compiled forms). The whole output is the same however the stream was cut.
 */
export class SecretScrubber {
  private readonly machine: Machine;
  /** Steps expected next by the partial matches alive, and the offset each started at (the earliest one per step). */
  private steps: Int32Array;
  private starts: Float64Array;
  private count = 0;
  private nextSteps: Int32Array;
  private nextStarts: Float64Array;
  private nextCount = 0;
  /** Per step: the generation it was last added in, and its slot then. */
  private readonly addedIn: Float64Array;
  private readonly slotOf: Int32Array;
  private generation = 0;
  /** Matched spans not yet written (disjoint, in order); overlapping matches are merged into one span. */
  private readonly spans: { start: number; end: number; who: number }[] = [];
  /** Bytes held back, from offset `heldAt`. */
  private held: Uint8Array = EMPTY;
  private heldAt = 0;
  /** Offset of the next byte read. */
  private offset = 0;
  /** Everything before this offset has been written (or replaced). */
  private written = 0;

  constructor(hidden: readonly HiddenSecret[]) {
    this.machine = compile(hidden);
    const size = this.machine.byteA.length;
    this.steps = new Int32Array(size);
    this.starts = new Float64Array(size);
    this.nextSteps = new Int32Array(size);
    this.nextStarts = new Float64Array(size);
    this.addedIn = new Float64Array(size).fill(-1);
    this.slotOf = new Int32Array(size);
  }

  /** The most bytes this scrubber ever holds back: its longest encoded form. */
  get holdLimit(): number {
    return this.machine.longest;
  }

  /** Bytes held back right now. */
  get heldBytes(): number {
    return this.held.length;
  }

  /** The bytes of `chunk` (and of the tail held before it) that are decided, scrubbed. */
  pass(chunk: Uint8Array): Uint8Array {
    const chunkAt = this.offset;
    for (let index = 0; index < chunk.length; index++) {
      if (this.count === 0) {
        // Nothing partly matched: skip to the next byte that can start a match.
        while (index < chunk.length && this.machine.startsOn[chunk[index]!]!.length === 0) index++;
        if (index === chunk.length) break;
      }
      this.read(chunk[index]!, chunkAt + index);
    }
    this.offset = chunkAt + chunk.length;
    return this.flush(chunk, chunkAt, this.count === 0 ? this.offset : this.earliestStart());
  }

  /** The held tail, scrubbed: the stream ended. */
  end(): Uint8Array {
    this.count = 0;
    return this.flush(EMPTY, this.offset, this.offset);
  }

  /** Advances every partial match over `byte` (at offset `at`) and starts the ones it begins. */
  private read(byte: number, at: number): void {
    const { byteA, byteB } = this.machine;
    this.generation++;
    this.nextCount = 0;
    for (let slot = 0; slot < this.count; slot++) {
      const step = this.steps[slot]!;
      if (byteA[step] === byte || byteB[step] === byte) this.advance(step, this.starts[slot]!, at);
    }
    for (const step of this.machine.startsOn[byte]!) this.advance(step, at, at);
    [this.steps, this.nextSteps] = [this.nextSteps, this.steps];
    [this.starts, this.nextStarts] = [this.nextStarts, this.starts];
    this.count = this.nextCount;
  }

  /** `step` read its byte (at `at`) in a match begun at `start`. */
  private advance(step: number, start: number, at: number): void {
    const { then, target, firsts } = this.machine;
    const kind = then[step];
    if (kind === NEXT_STEP) this.expect(step + 1, start);
    else if (kind === NEXT_POSITION) for (const first of firsts[target[step]!]!) this.expect(first, start);
    else this.matched(start, at + 1, target[step]!);
  }

  private expect(step: number, start: number): void {
    if (this.addedIn[step] === this.generation) {
      const slot = this.slotOf[step]!;
      if (start < this.nextStarts[slot]!) this.nextStarts[slot] = start;
      return;
    }
    this.addedIn[step] = this.generation;
    this.slotOf[step] = this.nextCount;
    this.nextSteps[this.nextCount] = step;
    this.nextStarts[this.nextCount] = start;
    this.nextCount++;
  }

  /** A secret was found at [start, end): merged with the spans it overlaps (the hint of the one that starts first, the longer at a tie). */
  private matched(start: number, end: number, who: number): void {
    let span = { start, end, who };
    for (let last = this.spans.at(-1); last && last.end > span.start; last = this.spans.at(-1)) {
      this.spans.pop();
      span = last.start < span.start ? { start: last.start, end, who: last.who } : span;
    }
    this.spans.push(span);
  }

  private earliestStart(): number {
    let earliest = Infinity;
    for (let slot = 0; slot < this.count; slot++) earliest = Math.min(earliest, this.starts[slot]!);
    return earliest;
  }

  /**
   * Writes everything before `safe` (no partial match begins earlier): raw bytes, and the hint of each span that ends
   * there; keeps the bytes from `safe` on. Gives `chunk` itself when all of it passes untouched.
   */
  private flush(chunk: Uint8Array, chunkAt: number, safe: number): Uint8Array {
    if (this.spans.length === 0 && this.held.length === 0 && safe === chunkAt + chunk.length) {
      this.written = safe;
      return chunk;
    }
    const bytes = (from: number, to: number): Uint8Array => {
      if (from >= to) return EMPTY;
      if (from >= chunkAt) return chunk.subarray(from - chunkAt, to - chunkAt);
      if (to <= chunkAt) return this.held.subarray(from - this.heldAt, to - this.heldAt);
      return concat([this.held.subarray(from - this.heldAt), chunk.subarray(0, to - chunkAt)]);
    };
    const out: Uint8Array[] = [];
    while (this.spans.length > 0 && this.spans[0]!.start < safe) {
      const span = this.spans[0]!;
      out.push(bytes(this.written, span.start));
      this.written = span.start;
      // A span a partial match still overlaps may grow: its hint waits.
      if (span.end > safe) break;
      out.push(this.machine.hints[span.who]!);
      this.written = span.end;
      this.spans.shift();
    }
    if (this.spans.length === 0 || this.spans[0]!.start >= safe) {
      out.push(bytes(this.written, safe));
      this.written = safe;
    }
    // Bytes before `safe` are written or inside a span, so only the rest is held (copied: the caller may reuse its chunk).
    this.held = bytes(Math.max(safe, this.written), this.offset).slice();
    this.heldAt = Math.max(safe, this.written);
    return concat(out);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const nonEmpty = parts.filter((part) => part.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? EMPTY;
  const out = new Uint8Array(nonEmpty.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of nonEmpty) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** `bytes` with every secret found replaced by its hint; `bytes` itself when none is in them. */
export function scrubWhole(bytes: Uint8Array, hidden: readonly HiddenSecret[]): Uint8Array {
  const live = hidden.filter(({ secret }) => secret !== '');
  if (live.length === 0) return bytes;
  const scrubber = new SecretScrubber(live);
  const head = scrubber.pass(bytes);
  const tail = scrubber.end();
  return tail.length === 0 && head === bytes ? bytes : concat([head, tail]);
}

/** `text` with every secret found (in any encoding) replaced by its hint; `text` itself when none is in it. */
export function scrubText(text: string, hidden: readonly HiddenSecret[]): string {
  const bytes = encoder.encode(text);
  const scrubbed = scrubWhole(bytes, hidden);
  return scrubbed === bytes ? text : new TextDecoder().decode(scrubbed);
}

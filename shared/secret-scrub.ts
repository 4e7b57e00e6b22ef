// Finds secrets in bytes in every encoding a reader could decode (raw UTF-8, JSON escapes, percent-encoding, base64 and base64url) and writes a hint instead, over a whole text or a stream cut anywhere.
import { compiled, NEXT_POSITION, NEXT_STEP, type HiddenSecret, type Machine } from './secret-forms.ts';

export type { HiddenSecret } from './secret-forms.ts';

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/**
 * Bytes of match states kept from ended scrubbers for the next ones of the same keys (made anew, a state, about 36 bytes
 * per step of its matcher: 100 KB for a 56-character key, 290 KB for a 164-character one, was most of a short scrub).
 */
export const SPARE_STATE_BYTES = 4 * 1024 * 1024;

/** A match state's bytes per step: three Int32Arrays and three Float64Arrays. */
const STATE_BYTES_PER_STEP = 3 * 4 + 3 * 8;

/**
 * What a scrubber tracks per step of its machine: the partial matches alive (steps and start offsets, this byte's and the
 * next's) and, per step, the generation it was last added in and its slot then. The generation only grows, so a state
 * handed to another scrubber needs no clearing.
 */
interface MatchState {
  steps: Int32Array;
  starts: Float64Array;
  nextSteps: Int32Array;
  nextStarts: Float64Array;
  readonly addedIn: Float64Array;
  readonly slotOf: Int32Array;
  generation: number;
}

/** The states kept, newest last, with their machine and size; at most SPARE_STATE_BYTES together. */
const spares: { machine: Machine; state: MatchState; bytes: number }[] = [];
let spareBytes = 0;

function matchStateOf(machine: Machine): MatchState {
  for (let index = spares.length - 1; index >= 0; index--) {
    const spare = spares[index]!;
    if (spare.machine !== machine) continue;
    spares.splice(index, 1);
    spareBytes -= spare.bytes;
    return spare.state;
  }
  const size = machine.byteA.length;
  return {
    steps: new Int32Array(size),
    starts: new Float64Array(size),
    nextSteps: new Int32Array(size),
    nextStarts: new Float64Array(size),
    addedIn: new Float64Array(size).fill(-1),
    slotOf: new Int32Array(size),
    generation: 0,
  };
}

/** The bytes of match states kept now (at most SPARE_STATE_BYTES). */
export function keptMatchStateBytes(): number {
  return spareBytes;
}

function giveBack(machine: Machine, state: MatchState): void {
  const bytes = state.addedIn.length * STATE_BYTES_PER_STEP;
  if (bytes > SPARE_STATE_BYTES) return;
  spares.push({ machine, state, bytes });
  spareBytes += bytes;
  while (spareBytes > SPARE_STATE_BYTES) spareBytes -= spares.shift()!.bytes;
}

/**
 * Scrubs a byte stream cut anywhere: `pass` gives back at once every byte that cannot be the start of an encoded secret
 * (with each secret found replaced by its hint) and holds back only a tail that still could be (never longer than the
 * longest encoded form); `end` gives the rest. Each byte is read once, against the partial matches alive at it (at most one
 * per step of the compiled forms). The whole output is the same however the stream was cut.
 */
export class SecretScrubber {
  private readonly machine: Machine;
  /** The partial matches alive (taken from the machine's spares at the first byte, given back at the end); see MatchState. */
  private state: MatchState | undefined;
  private count = 0;
  private nextCount = 0;
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
    this.machine = compiled(hidden);
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
    this.state ??= matchStateOf(this.machine);
    const { rowOf, follows } = this.machine;
    const last = chunk.length - 1;
    for (let index = 0; index < chunk.length; index++) {
      if (this.count === 0) {
        // Nothing partly matched: skip to the next byte that can start a match (one table read a byte), and past one whose
        // matches the byte after it ends at once (when that byte is in this chunk: else they are held across the cut).
        for (; index < chunk.length; index++) {
          const row = rowOf[chunk[index]!]!;
          if (row !== 0 && (index === last || follows[row * 256 + chunk[index + 1]!] === 1)) break;
        }
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
    if (this.state) giveBack(this.machine, this.state);
    this.state = undefined;
    return this.flush(EMPTY, this.offset, this.offset);
  }

  /** Advances every partial match over `byte` (at offset `at`) and starts the ones it begins. */
  private read(byte: number, at: number): void {
    const { byteA, byteB } = this.machine;
    const state = this.state!;
    state.generation++;
    this.nextCount = 0;
    for (let slot = 0; slot < this.count; slot++) {
      const step = state.steps[slot]!;
      if (byteA[step] === byte || byteB[step] === byte) this.advance(step, state.starts[slot]!, at);
    }
    for (const step of this.machine.startsOn[byte]!) this.advance(step, at, at);
    [state.steps, state.nextSteps] = [state.nextSteps, state.steps];
    [state.starts, state.nextStarts] = [state.nextStarts, state.starts];
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
    const state = this.state!;
    if (state.addedIn[step] === state.generation) {
      const slot = state.slotOf[step]!;
      if (start < state.nextStarts[slot]!) state.nextStarts[slot] = start;
      return;
    }
    state.addedIn[step] = state.generation;
    state.slotOf[step] = this.nextCount;
    state.nextSteps[this.nextCount] = step;
    state.nextStarts[this.nextCount] = start;
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
    for (let slot = 0; slot < this.count; slot++) earliest = Math.min(earliest, this.state!.starts[slot]!);
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
  return scrubbed(bytes, hidden, true);
}

/**
 * `bytes`, the start of a longer text whose rest was not read, with every secret found replaced by its hint and a tail
 * that could begin one left out (the rest of it was never read, so no scrub could find it whole).
 */
export function scrubHead(bytes: Uint8Array, hidden: readonly HiddenSecret[]): Uint8Array {
  return scrubbed(bytes, hidden, false);
}

/** `bytes` scrubbed in one pass: with the tail the scrubber held back at their end (`whole`), or without it. */
function scrubbed(bytes: Uint8Array, hidden: readonly HiddenSecret[], whole: boolean): Uint8Array {
  const live = hidden.filter(({ secret }) => secret !== '');
  if (live.length === 0) return bytes;
  const scrubber = new SecretScrubber(live);
  const head = scrubber.pass(bytes);
  // Ended in either case, so its state is given back.
  const tail = scrubber.end();
  return !whole || (tail.length === 0 && head === bytes) ? head : concat([head, tail]);
}

/** `text` with every secret found (in any encoding) replaced by its hint; `text` itself when none is in it. */
export function scrubText(text: string, hidden: readonly HiddenSecret[]): string {
  const bytes = encoder.encode(text);
  const scrubbed = scrubWhole(bytes, hidden);
  return scrubbed === bytes ? text : new TextDecoder().decode(scrubbed);
}

// Cuts a JSON array arriving in chunks (Gemini's stream without alt=sse) into its elements as each one completes, so each can be read and rewritten as it passes; one pass, holding at most one element.
import { concat, MAX_SSE_EVENT_BYTES, MAX_SSE_STREAM_BYTES, type SseLimits } from '../../../../shared/sse-reader.ts';
import type { StreamCap } from './stream-caps.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]

/**
 * Splits the bytes of a JSON array into pieces that each end with one whole element (objects and arrays; scalars pass in the
 * rest). Each byte is looked at once (the characters that matter are ASCII, so UTF-8 needs no decoding); what is held is the
 * text since the last element, never more than the event cap of `limits` (an element is an event of this stream).
 */
export class JsonArrayPieces {
  /** Set once a cap was passed: nothing more is read. */
  overflow: StreamCap | undefined;
  private readonly limits: SseLimits;
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private streamBytes = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Where the element being read starts, counted in bytes from the start of what is held (-1: between elements). */
  private start = -1;

  constructor(limits: SseLimits = { eventBytes: MAX_SSE_EVENT_BYTES, streamBytes: MAX_SSE_STREAM_BYTES }) {
    this.limits = limits;
  }

  /** Adds `chunk`; returns the pieces now complete: the bytes before an element and the element, rewritten by `edit`. */
  push(chunk: Uint8Array, edit: (element: Uint8Array) => Uint8Array): Uint8Array[] {
    const pieces: Uint8Array[] = [];
    if (this.overflow) return pieces;
    this.streamBytes += chunk.length;
    if (this.streamBytes > this.limits.streamBytes) {
      this.overflow = 'stream';
      return pieces;
    }
    let from = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
        continue;
      }
      if (byte === QUOTE) this.inString = true;
      else if (OPEN.has(byte)) {
        if (this.depth === 1 && this.start < 0) this.start = this.heldBytes + i - from;
        this.depth += 1;
      } else if (CLOSE.has(byte)) {
        this.depth -= 1;
        if (this.depth === 1 && this.start >= 0) {
          const piece = concat([...this.held, chunk.subarray(from, i + 1)]);
          pieces.push(piece.subarray(0, this.start), edit(piece.subarray(this.start)));
          this.held = [];
          this.heldBytes = 0;
          this.start = -1;
          from = i + 1;
        }
      }
    }
    if (from < chunk.length) {
      this.held.push(chunk.subarray(from));
      this.heldBytes += chunk.length - from;
      if (this.heldBytes > this.limits.eventBytes) this.overflow = 'event';
    }
    return pieces.filter((piece) => piece.length > 0);
  }

  /** What is left once the array ended (its closing bracket, or a cut element as it came). */
  rest(): Uint8Array {
    const rest = this.overflow ? new Uint8Array(0) : concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    return rest;
  }
}

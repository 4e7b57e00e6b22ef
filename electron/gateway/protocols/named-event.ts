// The protocol-neutral form of one server-sent event that the stream builders produce and the routes write.
import type { KeptMark } from '../../../shared/journal.ts';

/** One SSE event: `name` becomes the `event:` line (omitted for data-only protocols), `data` the JSON `data:` line. */
export interface NamedEvent {
  name?: string;
  data: unknown;
  /** The event's whole SSE frame already written (the same text `sseFrame` makes of `name` and `data`), when the builder made it cheaper itself. */
  frame?: string;
}

/** A frame written as-is: `data: [DONE]`, the end marker of OpenAI chat and completions streams. */
export const DONE = Symbol('done');

/**
 * What the events of a run share around each one's quoted text (a JSON string): event i's JSON is `head + quoted[i] +
 * tail`, then, when `numbered`, its number (counted from `from`) and `close` (a Responses event's `sequence_number`).
 */
export interface RunShape {
  /** The events' name (their SSE `event:` line); absent for data-only protocols. */
  name?: string;
  head: string;
  quoted: readonly string[];
  tail: string;
  numbered?: { from: number; close: string };
}

/**
 * Events written together (`T`: the events a stage makes, NamedEvents or a data-only protocol's objects): their text made
 * in one pass around each one's quoted piece (a stream at hand writes it as is), the events themselves made only for a
 * writer that sends them one by one (a stream fault counts frames).
 */
export class EventRun<T = NamedEvent> {
  private readonly shape: RunShape;
  private readonly made: () => T[];
  constructor(shape: RunShape, made: () => T[]) {
    this.shape = shape;
    this.made = made;
  }
  /** How many events the run stands for. */
  get size(): number {
    return this.shape.quoted.length;
  }
  /** The run's SSE frames: per event its `event:` line (when named), its `data:` line and the blank line. */
  get frames(): string {
    const name = this.shape.name;
    return this.framed(name === undefined ? DATA_FRAME_START : `event: ${name}\n${DATA_FRAME_START}`, FRAME_END);
  }
  /** Each event's JSON between `before` and `after`, concatenated (not joined: the write's one flattening is their only copy). */
  framed(before: string, after: string): string {
    const { head, quoted, tail, numbered } = this.shape;
    const opening = before + head;
    let text = '';
    if (numbered === undefined) {
      const closing = tail + after;
      for (const piece of quoted) text += opening + piece + closing;
    } else {
      const closing = numbered.close + after;
      let number = numbered.from;
      for (const piece of quoted) text += opening + piece + tail + number++ + closing;
    }
    return text;
  }
  /** The run's events, one by one: the same text as `framed` makes. */
  events(): T[] {
    return this.made();
  }
}

/**
 * Frames already written as UTF-8 bytes (a kept answer's stream, see neutral/kept-stream.ts), sent as they are. Their
 * storage is their own (a view of one ArrayBuffer no other code holds), and their maker reads it no more once given out.
 */
export class WrittenBytes {
  readonly bytes: Buffer;
  /** Which kept render they are part of, with which identity written in (told to the journal with them). */
  readonly kept: KeptMark | undefined;
  constructor(bytes: Buffer, kept?: KeptMark) {
    this.bytes = bytes;
    this.kept = kept;
  }
}

/** What an SSE stream carries: events, runs of them, frames written as bytes, and OpenAI's end marker. */
export type SseEvent = NamedEvent | EventRun | WrittenBytes | typeof DONE;

/** What starts an SSE frame's `data:` line, and what ends the frame (the line's end and the blank line). */
export const DATA_FRAME_START = 'data: ';
export const FRAME_END = '\n\n';

/**
 * One SSE frame: `event:` (when named) and `data:` lines, or the raw `[DONE]` marker (a run: its frames). Frames written
 * as bytes are sent as they are (server/sse.ts), never decoded back to text: asked for their text, it throws.
 */
export function sseFrame(event: SseEvent): string {
  if (event === DONE) return 'data: [DONE]\n\n';
  if (event instanceof EventRun) return event.frames;
  if (event instanceof WrittenBytes) throw new TypeError('Frames written as bytes are sent as they are, not as text.');
  if (event.frame !== undefined) return event.frame;
  const data = dataFrame(JSON.stringify(event.data));
  return event.name ? `event: ${event.name}\n${data}` : data;
}

/** The `data:` line of an SSE frame and the blank line that ends it. */
export function dataFrame(json: string): string {
  return DATA_FRAME_START + json + FRAME_END;
}

/** A data-only protocol's item as its SSE frame (Gemini's stream with `alt=sse`): its JSON's `data:` line, or a run's frames. */
export function dataOnlyFrame(item: unknown): string {
  return item instanceof EventRun ? item.frames : dataFrame(JSON.stringify(item));
}

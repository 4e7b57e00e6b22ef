// The protocol-neutral form of one server-sent event that the stream builders produce and the routes write.

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
 * Events written together: their frames' text made in one pass (a stream at hand writes it as is), the events themselves
 * made only for a writer that sends them one by one (a stream fault counts frames).
 */
export class EventRun {
  readonly frames: string;
  private readonly made: () => NamedEvent[];
  constructor(frames: string, made: () => NamedEvent[]) {
    this.frames = frames;
    this.made = made;
  }
  /** The run's events, one by one: the same frames as `frames`. */
  events(): NamedEvent[] {
    return this.made();
  }
}

/** What an SSE stream carries: events, runs of them, and OpenAI's end marker. */
export type SseEvent = NamedEvent | EventRun | typeof DONE;

/** What starts an SSE frame's `data:` line, and what ends the frame (the line's end and the blank line). */
export const DATA_FRAME_START = 'data: ';
export const FRAME_END = '\n\n';

/** One SSE frame: `event:` (when named) and `data:` lines, or the raw `[DONE]` marker (a run: its frames). */
export function sseFrame(event: SseEvent): string {
  if (event === DONE) return 'data: [DONE]\n\n';
  if (event instanceof EventRun) return event.frames;
  if (event.frame !== undefined) return event.frame;
  const data = dataFrame(JSON.stringify(event.data));
  return event.name ? `event: ${event.name}\n${data}` : data;
}

/** The `data:` line of an SSE frame and the blank line that ends it. */
export function dataFrame(json: string): string {
  return DATA_FRAME_START + json + FRAME_END;
}

// The protocol-neutral form of one server-sent event that the stream builders produce and the routes write.

/** One SSE event: `name` becomes the `event:` line (omitted for data-only protocols), `data` the JSON `data:` line. */
export interface NamedEvent {
  name?: string;
  data: unknown;
}

/** A frame written as-is: `data: [DONE]`, the end marker of OpenAI chat and completions streams. */
export const DONE = Symbol('done');

/** What an SSE stream carries: events, and OpenAI's end marker. */
export type SseEvent = NamedEvent | typeof DONE;

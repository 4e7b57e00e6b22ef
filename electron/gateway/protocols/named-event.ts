// The protocol-neutral form of one server-sent event that the stream builders produce and the routes write.

/** One SSE event: `name` becomes the `event:` line (omitted for data-only protocols), `data` the JSON `data:` line. */
export interface NamedEvent {
  name?: string;
  data: unknown;
  /** `data` already written as JSON (the same text `JSON.stringify(data)` gives), when the builder made it cheaper itself. */
  json?: string;
}

/** A frame written as-is: `data: [DONE]`, the end marker of OpenAI chat and completions streams. */
export const DONE = Symbol('done');

/** What an SSE stream carries: events, and OpenAI's end marker. */
export type SseEvent = NamedEvent | typeof DONE;

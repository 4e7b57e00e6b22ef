// Server-sent events in the console: a response body read into `{event, data}` messages as they arrive, by the one SSE reader (shared/sse-reader.ts).
import { MAX_SSE_EVENT_BYTES, SseReader, type SseEvent } from '../../../shared/sse-reader.ts';

/** One server-sent event. */
export interface SseMessage {
  event: string | undefined;
  data: string;
}

/**
 * Reads a response body as SSE, calling `onRaw` with each decoded chunk and `onMessage` with each message (a last one
 * without its blank line too). Throws when the stream passes the reader's caps.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
  onRaw: (text: string) => void = () => {},
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events = new SseReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onRaw(decoder.decode(value, { stream: true }));
    for (const event of events.push(value)) deliver(event, onMessage);
    if (events.overflow) {
      await reader.cancel();
      throw new Error(
        `The stream sent more than the console reads (an event over ${MAX_SSE_EVENT_BYTES / 1024 / 1024} MiB or a very long stream).`,
      );
    }
  }
  const last = events.end();
  if (last) deliver(last, onMessage);
}

/** Passes on an event that named a type or carried data. */
function deliver(event: SseEvent, onMessage: (message: SseMessage) => void): void {
  if (event.data !== undefined || event.type !== '') onMessage({ event: event.type || undefined, data: event.data ?? '' });
}

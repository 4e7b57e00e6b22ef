// Reads an upstream's server-sent event stream into the JSON value of each event's data, as each event completes, with the reader's caps on one event and the whole stream.
import { SseReader, type SseEvent } from '../../../../../shared/sse-reader.ts';
import { GatewayError } from '../../../errors.ts';
import { streamCapError } from '../stream-caps.ts';

/** The parsed `data` of each event of `bytes`; `[DONE]`, comments and events without data are skipped, data that is not JSON is an upstream failure. */
export async function* sseJson(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<unknown> {
  const reader = new SseReader();
  for await (const chunk of bytes) {
    for (const event of reader.push(chunk)) {
      const value = dataOf(event);
      if (value !== undefined) yield value;
    }
    if (reader.overflow) throw streamCapError(reader.overflow);
  }
  const last = reader.end();
  const value = last && dataOf(last);
  if (value !== undefined) yield value;
}

function dataOf(event: SseEvent): unknown {
  const data = event.data?.trim();
  if (data === undefined || data === '' || data === '[DONE]') return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw new GatewayError('upstream_failed', 'The upstream sent a stream event that is not JSON.');
  }
}

// Reads an upstream's server-sent event stream into the JSON value of each event's data, as each event completes, with a bound on one event's size.
import { GatewayError } from '../../../errors.ts';

/** The largest single event accepted from an upstream (a longer one ends the stream with an error). */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

const FRAME_END = /\r?\n\r?\n/;

/** The parsed `data` of each event of `bytes`; `[DONE]`, comments and events without data are skipped, data that is not JSON is an upstream failure. */
export async function* sseJson(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of bytes) {
    pending += decoder.decode(chunk, { stream: true });
    for (let match = FRAME_END.exec(pending); match; match = FRAME_END.exec(pending)) {
      const frame = pending.slice(0, match.index);
      pending = pending.slice(match.index + match[0].length);
      const value = dataOf(frame);
      if (value !== undefined) yield value;
    }
    if (pending.length > MAX_EVENT_BYTES) throw new GatewayError('upstream_failed', 'The upstream sent a stream event over 16 MiB.');
  }
  pending += decoder.decode();
  const last = dataOf(pending);
  if (last !== undefined) yield last;
}

function dataOf(frame: string): unknown {
  const data = frame
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  if (data.trim() === '' || data.trim() === '[DONE]') return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw new GatewayError('upstream_failed', 'The upstream sent a stream event that is not JSON.');
  }
}

// Wraps a response's write and end so that each chunk is seen (with its encoding) before it goes out: the journal's capture and the cassette tap read answers through it.
import type { ServerResponse } from 'node:http';

/** Calls `seen(chunk, encoding)` for every chunk written to `raw` through write or end, then writes it as before. */
export function tapWrites(raw: ServerResponse, seen: (chunk: unknown, encoding: unknown) => void): void {
  const write = raw.write;
  const end = raw.end;
  raw.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    seen(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  raw.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    seen(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
}

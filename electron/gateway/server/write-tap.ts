// Wraps a response's writeHead, write and end so that its head's headers and each chunk (with its encoding) are seen before they go out: the journal's capture and the cassette tap read answers through it.
import type { ServerResponse } from 'node:http';

/** Calls `seen(chunk, encoding)` for every chunk written to `raw` through write or end, then writes it as before. */
export function tapWrites(raw: ServerResponse, seen: (chunk: unknown, encoding: unknown) => void): void {
  const write = raw.write;
  const end = raw.end;
  // Each wrap is made into a local first, then set: see `watchHead`.
  const tappedWrite = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    seen(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
  const tappedEnd = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    seen(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  };
  raw.write = tappedWrite as ServerResponse['write'];
  raw.end = tappedEnd as ServerResponse['end'];
}

/** The headers of a writeHead given none (never written to). */
export const NO_HEADERS: object = Object.freeze({});

/**
 * Calls `onHead` with the headers passed to writeHead (an empty object when none), just before the head is written:
 * one wrap per call, however many parts of the gateway need to see its head.
 */
export function watchHead(raw: ServerResponse, onHead: (given: object) => void): void {
  const writeHead = raw.writeHead;
  // Made into a local first, then set. V8 makes a function written straight into a property (`raw.writeHead = function …`)
  // in the old generation, as if it were a long-lived method: each call's wrap would then keep its call's objects (through
  // `onHead`) alive past every young-generation collection until a full one (bench/results/2026-11-26-s5-gc.md).
  const watched = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    let given: object = NO_HEADERS;
    for (const item of rest) {
      if (typeof item === 'object' && item !== null) {
        if (!Array.isArray(item)) given = item;
        break;
      }
    }
    onHead(given);
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  };
  raw.writeHead = watched as ServerResponse['writeHead'];
}

/** One header value as one string (a list joined as HTTP joins it). */
const headerText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : String(value));

/**
 * Every header of `raw`'s answer, whichever way it was set: those set on it and those given to writeHead (`given`, which
 * win), named in lower case, each value one string, the names `keep` refuses left out. Built in one pass over each.
 */
export function sentHeaders(raw: ServerResponse, given: object, keep: (name: string) => boolean = () => true): Record<string, string> {
  const sent: Record<string, string> = {};
  // Named in lower case; read one by one rather than through getHeaders(), a copy of them all.
  for (const name of raw.getHeaderNames()) {
    const value = raw.getHeader(name);
    if (value !== undefined && keep(name)) sent[name] = headerText(value);
  }
  for (const name in given) {
    if (!Object.hasOwn(given, name)) continue;
    const value = (given as Record<string, unknown>)[name];
    const lower = name.toLowerCase();
    if (value === undefined) delete sent[lower];
    else if (keep(lower)) sent[lower] = headerText(value);
  }
  return sent;
}

// Time for the gateway: the injectable clock and RFC 3339 formatting of stored millisecond timestamps.

/** The gateway's only source of the current time, so hosts and tests can control it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** RFC 3339 in UTC with an explicit `+00:00` offset and millisecond fraction, e.g. `2026-11-22T11:16:50.123+00:00`. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

/** Parses an RFC 3339 timestamp (offset required) into epoch ms, or undefined when it is not one. */
export function parseRfc3339(text: string): number | undefined {
  const match = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (!match) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

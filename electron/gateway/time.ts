// Time for the gateway: the injectable clock and RFC 3339 formatting of stored millisecond timestamps.

/** The gateway's only source of the current time, so hosts and tests can control it. */
export interface Clock {
  now(): number;
}

/** Milliseconds in a day. */
export const DAY_MS = 24 * 60 * 60 * 1000;

export const systemClock: Clock = { now: () => Date.now() };

/** Longest total jump of the testing API's clock (`POST /admin/api/clock/advance`): ten years. */
export const MAX_CLOCK_OFFSET_MS = 10 * 365 * 24 * 60 * 60 * 1000;

/**
 * The gateway's clock: a base clock (the system's, or a host's) plus an offset the testing API moves forward. Every
 * service reads this one, so an advance is seen by all of them at once; listeners re-arm what waits on real timers.
 */
export class OffsetClock implements Clock {
  private readonly base: Clock;
  private offset = 0;
  private readonly listeners = new Set<() => void>();
  constructor(base: Clock) {
    this.base = base;
  }

  now(): number {
    return this.base.now() + this.offset;
  }

  /** Milliseconds this clock is ahead of its base. */
  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock forward by `ms` (a positive whole number; the total stays within MAX_CLOCK_OFFSET_MS), then tells the listeners. */
  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms <= 0 || this.offset + ms > MAX_CLOCK_OFFSET_MS)
      throw new RangeError(`the clock moves forward by 1 to ${MAX_CLOCK_OFFSET_MS - this.offset} ms`);
    this.offset += ms;
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after each advance (the background scan and the batch runner look again at once). */
  onAdvance(listener: () => void): void {
    this.listeners.add(listener);
  }
}

/**
 * The UTC day (days since 1970-01-01) of an epoch-ms time: the day SQLite's `date(@at / 1000, 'unixepoch')` names for
 * a bound time (bound as a real, so the division keeps the milliseconds), so a day computed here is the database's.
 */
export function dayNumberOf(at: number): number {
  return Math.floor(at / DAY_MS);
}

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

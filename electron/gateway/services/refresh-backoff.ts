// How long the background scan leaves an asset alone whose refreshes keep failing: exponential, capped, with jitter.

/** The first failures are retried at the next scan; from the third in a row the asset waits 1 min, doubling up to 1 h, each wait scaled by a random factor in [0.5, 1). */
export const REFRESH_BACKOFF = {
  failuresBeforeBackoff: 3,
  firstDelayMs: 60_000,
  maxDelayMs: 3_600_000,
} as const;

/** The wait after `failures` failed refreshes in a row (0: none); `random` gives a number in [0, 1). */
export function refreshBackoffMs(failures: number, random: () => number = Math.random): number {
  if (failures < REFRESH_BACKOFF.failuresBeforeBackoff) return 0;
  const exponent = Math.min(failures - REFRESH_BACKOFF.failuresBeforeBackoff, 30);
  const delay = Math.min(REFRESH_BACKOFF.firstDelayMs * 2 ** exponent, REFRESH_BACKOFF.maxDelayMs);
  return Math.round(delay * (0.5 + random() / 2));
}

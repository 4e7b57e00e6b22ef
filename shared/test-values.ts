// The gateway's test values a client (or the console's playground) can ask for: faults, latency and pacing headers.

/** Every fault a caller can ask for with `x-gatehouse-fault` (or a `-fault-<value>` model suffix). */
export const FAULTS = ['429', '500', '503', '529', 'timeout', 'disconnect', 'malformed'] as const;
export type Fault = (typeof FAULTS)[number];

/** Longest delay `x-gatehouse-latency-ms` may ask for. */
export const MAX_LATENCY_MS = 60_000;

// Test helper: a clock that only moves when the test says so.
import type { Clock } from '../../electron/gateway/time.ts';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = Date.parse('2026-11-22T10:00:00.000Z')): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}

// Unit tests of the asset poller: checked 1 s after it shows up, then 3 s backing off to 10 s, stopped at a terminal status or when no longer shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAssetPoller, type PollTimers } from '../../../renderer/src/stores/asset-poll.ts';

/** Timers run by hand: `next()` fires the earliest and says how long it waited. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: PollTimers = {
    setTimeout(run, ms) {
      seq += 1;
      pending.set(seq, { at: now + ms, run });
      return seq;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    pending: () => pending.size,
    async next(): Promise<number> {
      const [handle, timer] = [...pending].sort((a, b) => a[1].at - b[1].at)[0]!;
      pending.delete(handle);
      const waited = timer.at - now;
      now = timer.at;
      timer.run();
      await new Promise((resolve) => setImmediate(resolve));
      return waited;
    },
  };
}

test('a pending asset is checked after 1 s, then after 3 s, backing off to 10 s, until it is terminal', async () => {
  const clock = manualTimers();
  const checks: string[] = [];
  let remaining = 6;
  const poller = createAssetPoller(async (assetId) => {
    checks.push(assetId);
    remaining -= 1;
    return remaining > 0;
  }, clock.timers);
  poller.track(['ast_1']);
  const waits: number[] = [];
  while (clock.pending() > 0) waits.push(await clock.next());
  assert.deepEqual(waits, [1000, 3000, 4500, 6750, 10000, 10000]);
  assert.equal(checks.length, 6, 'no check after the terminal answer');
});

test('an asset no longer shown stops being polled; a failed check only waits longer', async () => {
  const clock = manualTimers();
  const checks: string[] = [];
  const poller = createAssetPoller(async (assetId) => {
    checks.push(assetId);
    if (assetId === 'ast_b') throw new Error('gateway away');
    return true;
  }, clock.timers);
  poller.track(['ast_a', 'ast_b']);
  await clock.next();
  await clock.next();
  assert.deepEqual(checks.sort(), ['ast_a', 'ast_b']);
  assert.equal(clock.pending(), 2, 'the failed check is tried again');
  poller.track(['ast_b']);
  assert.equal(clock.pending(), 1);
  poller.stop();
  assert.equal(clock.pending(), 0);
});

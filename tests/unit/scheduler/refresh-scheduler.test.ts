// Unit tests of the refresh scheduler: bounded concurrency, no overlapping scans, errors counted without stopping, restart rhythm.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefreshScheduler } from '../../../electron/gateway/scheduler/refresh-scheduler.ts';
import type { AssetRefresher } from '../../../electron/gateway/services/asset-refresh.ts';
import type { AssetRow, AssetsRepo } from '../../../electron/gateway/storage/assets-repo.ts';
import type { MetaRepo } from '../../../electron/gateway/storage/meta-repo.ts';
import { manualClock } from '../../helpers/clock.ts';

function fakes(pending: number[]) {
  const meta = new Map<string, string>();
  const assets = {
    pendingIds: (after: number, limit: number) => pending.filter((id) => id > after).slice(0, limit),
    findById: (id: number) => ({ id }) as AssetRow,
  } as unknown as AssetsRepo;
  const metaRepo = { get: (k: string) => meta.get(k), set: (k: string, v: string) => meta.set(k, v) } as unknown as MetaRepo;
  return { assets, meta, metaRepo };
}

test('a scan refreshes every pending asset with at most `concurrency` at once', async () => {
  const ids = Array.from({ length: 450 }, (_, i) => i + 1);
  const { assets, metaRepo } = fakes(ids);
  let active = 0;
  let peak = 0;
  const seen: number[] = [];
  const refresher = {
    refresh: async (row: AssetRow) => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(row.id);
      active -= 1;
      return row;
    },
  } as unknown as AssetRefresher;
  const scheduler = new RefreshScheduler({ intervalMs: 1000, assets, meta: metaRepo, refresher, clock: manualClock(), concurrency: 3 });
  const report = await scheduler.runNow();
  assert.equal(report.checked, 450);
  assert.equal(peak, 3);
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    ids,
  );
});

test('runNow during a scan joins it instead of starting a second one', async () => {
  const { assets, metaRepo } = fakes([1, 2]);
  let calls = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const refresher = {
    refresh: async (row: AssetRow) => {
      calls += 1;
      await gate;
      return row;
    },
  } as unknown as AssetRefresher;
  const scheduler = new RefreshScheduler({ intervalMs: 1000, assets, meta: metaRepo, refresher, clock: manualClock() });
  const first = scheduler.runNow();
  const second = scheduler.runNow();
  assert.equal(first, second);
  release();
  await first;
  assert.equal(calls, 2);
});

test('an unexpected error on one asset is counted and the scan carries on', async () => {
  const { assets, metaRepo } = fakes([1, 2, 3]);
  const errors: unknown[] = [];
  const refresher = {
    refresh: async (row: AssetRow) => {
      if (row.id === 2) throw new Error('boom');
      return row;
    },
  } as unknown as AssetRefresher;
  const scheduler = new RefreshScheduler({
    intervalMs: 1000,
    assets,
    meta: metaRepo,
    refresher,
    clock: manualClock(),
    onError: (error) => errors.push(error),
  });
  const report = await scheduler.runNow();
  assert.equal(report.checked, 3);
  assert.equal(report.errors, 1);
  assert.equal(errors.length, 1);
});

test('after a restart the next scan is due one interval after the last stored scan', async () => {
  const clock = manualClock();
  const { assets, metaRepo, meta } = fakes([]);
  const refresher = { refresh: async (row: AssetRow) => row } as unknown as AssetRefresher;
  const options = { intervalMs: 300_000, assets, meta: metaRepo, refresher, clock };
  const first = new RefreshScheduler(options);
  await first.runNow();
  assert.equal(meta.get('refresh.last_scan_at'), String(clock.now()));
  clock.advance(120_000);
  const restarted = new RefreshScheduler(options);
  restarted.start();
  assert.equal(restarted.nextRunAt, clock.now() + 180_000);
  await restarted.stop();
  assert.equal(restarted.nextRunAt, null);
});

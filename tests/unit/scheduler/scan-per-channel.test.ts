// Unit tests of the scan against real upstreams: one bounded pool per reviewer, a per-channel request rate, backing-off assets skipped, progress reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefreshScheduler } from '../../../electron/gateway/scheduler/refresh-scheduler.ts';
import type { AssetRefresher } from '../../../electron/gateway/services/asset-refresh.ts';
import type { AssetRow, AssetsRepo } from '../../../electron/gateway/storage/assets-repo.ts';
import type { MetaRepo } from '../../../electron/gateway/storage/meta-repo.ts';
import { manualClock } from '../../helpers/clock.ts';

type Row = Pick<AssetRow, 'id' | 'asset_id' | 'status' | 'reviewer_channel_id' | 'next_refresh_at' | 'refresh_error'>;

function fakes(rows: Row[]) {
  const assets = {
    pendingIds: (after: number, limit: number) =>
      rows
        .map((row) => row.id)
        .filter((id) => id > after)
        .slice(0, limit),
    findById: (id: number) => rows.find((row) => row.id === id) as AssetRow,
  } as unknown as AssetsRepo;
  const meta = { get: () => undefined, set: () => undefined } as unknown as MetaRepo;
  return { assets, meta };
}

const row = (id: number, channel: string | null, extra: Partial<Row> = {}): Row => ({
  id,
  asset_id: `ast_${id}`,
  status: 'Submitted',
  reviewer_channel_id: channel,
  next_refresh_at: null,
  refresh_error: null,
  ...extra,
});

test('each reviewer gets its own pool of `concurrency`, so a stuck channel holds back only its own assets', async () => {
  const rows = [...Array.from({ length: 6 }, (_, i) => row(i + 1, 'ch_slow')), ...Array.from({ length: 6 }, (_, i) => row(i + 7, null))];
  const { assets, meta } = fakes(rows);
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const simulatedDone: number[] = [];
  const refresher = {
    refresh: async (asset: AssetRow) => {
      const key = asset.reviewer_channel_id ?? 'sim';
      active.set(key, (active.get(key) ?? 0) + 1);
      peak.set(key, Math.max(peak.get(key) ?? 0, active.get(key)!));
      if (key === 'ch_slow') await slow;
      else {
        await new Promise((resolve) => setImmediate(resolve));
        simulatedDone.push(asset.id);
      }
      active.set(key, active.get(key)! - 1);
      return { ...asset, status: 'Active' };
    },
  } as unknown as AssetRefresher;
  const scheduler = new RefreshScheduler({
    intervalMs: 1000,
    assets,
    meta,
    refresher,
    clock: manualClock(),
    concurrency: 2,
    channelRatePerSecond: 1000,
  });
  const scan = scheduler.runNow();
  while (simulatedDone.length < 6) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(peak.get('ch_slow'), 2, 'the stuck channel has at most 2 refreshes at once');
  release();
  const report = await scan;
  assert.equal(report.checked, 12);
  assert.equal(peak.get('sim'), 2);
  assert.equal(report.pending, 0);
});

test('requests to one channel start at most `channelRatePerSecond` per second', async () => {
  const { assets, meta } = fakes(Array.from({ length: 5 }, (_, i) => row(i + 1, 'ch_a')));
  const starts: number[] = [];
  const refresher = {
    refresh: async (asset: AssetRow) => {
      starts.push(performance.now());
      return asset;
    },
  } as unknown as AssetRefresher;
  const scheduler = new RefreshScheduler({ intervalMs: 1000, assets, meta, refresher, clock: manualClock(), channelRatePerSecond: 20 });
  await scheduler.runNow();
  assert.equal(starts.length, 5);
  // 20 per second: starts at least 50 ms apart (a little timer slack allowed), so 5 starts span at least ~200 ms.
  assert.ok(starts[4]! - starts[0]! >= 190, `5 starts took ${Math.round(starts[4]! - starts[0]!)} ms`);
});

test('an asset backing off is left alone and counted; the last refresh error is reported', async () => {
  const clock = manualClock();
  const rows = [
    row(1, 'ch_a', { next_refresh_at: clock.now() + 60_000 }),
    row(2, 'ch_a', { next_refresh_at: clock.now() - 1 }),
    row(3, null),
  ];
  const { assets, meta } = fakes(rows);
  const seen: number[] = [];
  const refresher = {
    refresh: async (asset: AssetRow) => {
      seen.push(asset.id);
      return asset.id === 2 ? { ...asset, refresh_error: 'the upstream is throttling requests' } : { ...asset, status: 'Active' };
    },
  } as unknown as AssetRefresher;
  const report = await new RefreshScheduler({ intervalMs: 1000, assets, meta, refresher, clock, channelRatePerSecond: 1000 }).runNow();
  assert.deepEqual(seen.sort(), [2, 3]);
  assert.equal(report.backingOff, 1);
  assert.equal(report.pending, 2, 'the one backing off and the one whose refresh failed');
  assert.equal(report.lastError, 'ast_2: the upstream is throttling requests');
});

// Unit tests of the asset refresher: shared in-flight calls, stored errors, and no change to terminal assets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamError } from '../../../electron/gateway/errors.ts';
import type { Reviewer, ReviewVerdict } from '../../../electron/gateway/providers/types.ts';
import { AssetRefresher } from '../../../electron/gateway/services/asset-refresh.ts';
import { AssetsRepo, type AssetRow } from '../../../electron/gateway/storage/assets-repo.ts';
import { manualClock } from '../../helpers/clock.ts';
import { seedGroup, tempDatabase } from '../../helpers/database.ts';
import { fakeProviders } from '../../helpers/providers.ts';

const db = tempDatabase();
const clock = manualClock();
const assets = new AssetsRepo(db);
const { account, group } = seedGroup(db, 'unit', 'grp_unit', clock.now());
let serial = 0;
function newAsset(): AssetRow {
  serial += 1;
  const id = assets.insert({
    asset_id: `ast_unit${serial}`,
    account_id: account.id,
    group_ref: group.id,
    url: 'https://a.example/x.png',
    asset_type: 'Image',
    name: '',
    status: 'Submitted',
    upstream_id: `up${serial}`,
    created_at: clock.now(),
    updated_at: clock.now(),
  });
  return assets.findById(id)!;
}

function scriptedReviewer(answers: (ReviewVerdict | Error)[]) {
  const calls: string[] = [];
  const reviewer: Reviewer = {
    submit: async () => ({ upstreamId: 'x' }),
    check: async (id) => {
      calls.push(id);
      await new Promise((resolve) => setImmediate(resolve));
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return { reviewer, calls };
}

test('concurrent refreshes of one asset make one upstream call and store it once', async () => {
  const { reviewer, calls } = scriptedReviewer([{ status: 'Active', resolvedUrl: 'asset://a' }]);
  const changes: AssetRow[] = [];
  const refresher = new AssetRefresher(assets, fakeProviders({ reviewer }), clock, (row) => changes.push(row));
  const row = newAsset();
  const [a, b] = await Promise.all([refresher.refresh(row), refresher.refresh(row)]);
  assert.equal(calls.length, 1);
  assert.equal(a.status, 'Active');
  assert.deepEqual(a, b);
  assert.equal(changes.length, 1);
});

test('an upstream error is stored in refresh_error and keeps the status; a terminal asset is never sent upstream', async () => {
  const { reviewer, calls } = scriptedReviewer([new UpstreamError('down'), { status: 'Failed', reason: 'nope' }]);
  const refresher = new AssetRefresher(assets, fakeProviders({ reviewer }), clock);
  const row = newAsset();
  const errored = await refresher.refresh(row);
  assert.equal(errored.status, 'Submitted');
  assert.equal(errored.refresh_error, 'down');
  const failed = await refresher.refresh(errored);
  assert.equal(failed.status, 'Failed');
  assert.equal(failed.failure_reason, 'nope');
  assert.equal(failed.refresh_error, null);
  const again = await refresher.refresh(failed);
  assert.equal(again, failed);
  assert.equal(calls.length, 2);
});

test('a late answer cannot move an asset that became terminal meanwhile', () => {
  const row = newAsset();
  const result = {
    status: 'Active' as const,
    resolved_url: 'asset://1',
    failure_reason: null,
    refresh_error: null,
    updated_at: clock.now(),
  };
  assert.equal(assets.applyRefresh(row.id, result), true);
  assert.equal(assets.applyRefresh(row.id, { ...result, status: 'Processing', resolved_url: null }), false);
  assert.equal(assets.findById(row.id)!.status, 'Active');
});

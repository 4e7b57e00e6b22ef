// Unit tests of the simulated reviewer's test values, against a real simulator store (simulate.sqlite).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamError } from '../../../electron/gateway/errors.ts';
import { SimulatedReviewer } from '../../../electron/gateway/providers/simulate/reviewer.ts';
import { SimReviewsRepo } from '../../../electron/gateway/providers/simulate/reviews-repo.ts';
import { manualClock } from '../../helpers/clock.ts';
import { tempSimulateStore } from '../../helpers/database.ts';

const db = tempSimulateStore();
const clock = manualClock();
const reviewer = new SimulatedReviewer({ repo: new SimReviewsRepo(db), clock, reviewMs: 1000 });

test('processing until the review time is over, then active with an asset:// URL', async () => {
  const { upstreamId } = await reviewer.submit({ url: 'https://a.example/img.JPG?x=1', assetType: 'Image' });
  assert.deepEqual(await reviewer.check(upstreamId), { status: 'Processing' });
  clock.advance(999);
  assert.deepEqual(await reviewer.check(upstreamId), { status: 'Processing' });
  clock.advance(1);
  assert.deepEqual(await reviewer.check(upstreamId), { status: 'Active', resolvedUrl: `asset://${upstreamId}` });
});

test('an unknown extension or none is not a mismatch', async () => {
  for (const url of ['https://a.example/file.bin', 'https://a.example/no-extension', 'https://a.example/dir.mp4/']) {
    const { upstreamId } = await reviewer.submit({ url, assetType: 'Image' });
    clock.advance(1000);
    assert.equal((await reviewer.check(upstreamId)).status, 'Active', url);
  }
});

test('.invalid hosts fail at submission; unknown upstream ids fail at check', async () => {
  await assert.rejects(reviewer.submit({ url: 'https://cdn.example.invalid/x.png', assetType: 'Image' }), UpstreamError);
  await assert.rejects(reviewer.check('sim_unknown'), UpstreamError);
});

test('flaky counts its checks across reviewer instances (the state is stored)', async () => {
  const { upstreamId } = await reviewer.submit({ url: 'https://a.example/FLAKY.png', assetType: 'Image' });
  clock.advance(1000);
  await assert.rejects(reviewer.check(upstreamId), /attempt 1/);
  const restarted = new SimulatedReviewer({ repo: new SimReviewsRepo(db), clock, reviewMs: 1000 });
  await assert.rejects(restarted.check(upstreamId), /attempt 2/);
  assert.equal((await restarted.check(upstreamId)).status, 'Active');
});

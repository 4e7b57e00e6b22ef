// Unit tests of the refresh backoff: two failures retried at once, then 1 min doubling to 1 h, each scaled by jitter in [0.5, 1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refreshBackoffMs } from '../../../electron/gateway/services/refresh-backoff.ts';

test('the first two failures in a row wait for nothing; from the third the wait doubles from 1 min up to 1 h', () => {
  const top = () => 1 - 1e-12;
  assert.equal(refreshBackoffMs(1, top), 0);
  assert.equal(refreshBackoffMs(2, top), 0);
  assert.equal(refreshBackoffMs(3, top), 60_000);
  assert.equal(refreshBackoffMs(4, top), 120_000);
  assert.equal(refreshBackoffMs(9, top), 3_600_000);
  assert.equal(refreshBackoffMs(500, top), 3_600_000);
});

test('jitter scales each wait into [half, whole)', () => {
  assert.equal(
    refreshBackoffMs(3, () => 0),
    30_000,
  );
  assert.equal(
    refreshBackoffMs(4, () => 0.5),
    90_000,
  );
  const waits = new Set(Array.from({ length: 50 }, () => refreshBackoffMs(5)));
  assert.ok([...waits].every((wait) => wait >= 120_000 && wait < 240_000));
  assert.ok(waits.size > 1, 'two assets failing together do not come back together');
});

// Unit tests of the paging normalisation rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizePaging } from '../../../electron/gateway/services/paging.ts';

test('valid values pass through and give the offset', () => {
  assert.deepEqual(normalizePaging('3', '25'), { page: 3, pageSize: 25, offset: 50 });
  assert.deepEqual(normalizePaging(' 2 ', '+10'), { page: 2, pageSize: 10, offset: 10 });
});

test('missing, non-numeric and fractional values take the defaults', () => {
  for (const [p, size] of [
    [undefined, undefined],
    ['', ''],
    ['x', '1e2'],
    ['2.0', '10.5'],
    [['2'], ['3']],
  ]) {
    assert.deepEqual(normalizePaging(p, size), { page: 1, pageSize: 20, offset: 0 }, JSON.stringify([p, size]));
  }
});

test('out-of-range values are brought into range', () => {
  assert.deepEqual(normalizePaging('0', '101'), { page: 1, pageSize: 100, offset: 0 });
  assert.deepEqual(normalizePaging('-1', '0'), { page: 1, pageSize: 20, offset: 0 });
  assert.deepEqual(normalizePaging('1', '-7'), { page: 1, pageSize: 20, offset: 0 });
});

// Unit tests of the cross-process lock file: held during the work, released after it, and never released once another process has taken it over.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { withFileLock } from '../../../electron/gateway/secrets/file-lock.ts';
import { tempDirs } from '../../helpers/gateway.ts';

const { fresh, removeAll } = tempDirs();
after(removeAll);

test('the lock file exists while the work runs and is gone after it, also when the work throws', async () => {
  const lock = path.join(fresh(), 'secrets.json.lock');
  await withFileLock(lock, () => assert.ok(existsSync(lock)));
  assert.equal(existsSync(lock), false);
  await assert.rejects(
    withFileLock(lock, () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(existsSync(lock), false);
});

test('a lock another process took over during the work (it judged ours stale) is left to that process', async () => {
  const lock = path.join(fresh(), 'secrets.json.lock');
  const theirs = `${process.ppid}:someone-else`;
  await withFileLock(lock, () => writeFileSync(lock, theirs));
  assert.equal(readFileSync(lock, 'utf8'), theirs);
});

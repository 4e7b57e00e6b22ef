// Unit tests of the cross-process lock file: held during the work, released after it, never released once another process has taken it over, never taken from a live holder, waited for while it changes hands.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { LOCK_WAIT_MS, LockTimeoutError, withFileLock } from '../../../electron/gateway/secrets/file-lock.ts';
import { manualClock } from '../../helpers/clock.ts';
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

/** Lock timing from a clock the test moves: each wait of the lock advances it 200 ms, and `onWait` plays the other processes. */
function testTiming(onWait: (now: number) => void = () => {}) {
  const clock = manualClock();
  return {
    now: clock.now,
    sleep: async () => {
      clock.advance(200);
      onWait(clock.now());
    },
    clock,
  };
}

test('a lock held by a live process is never taken over, however old: the waiter gives up after LOCK_WAIT_MS naming the lock and its process', async () => {
  const lock = path.join(fresh(), 'secrets.json.lock');
  const theirs = `${process.pid}:a-slow-writer`;
  writeFileSync(lock, theirs);
  const anHourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(lock, anHourAgo, anHourAgo);
  const timing = testTiming();
  let ran = false;
  await assert.rejects(
    withFileLock(lock, () => (ran = true), timing),
    (error: Error) => error instanceof LockTimeoutError && error.message.includes(lock) && error.message.includes(`process ${process.pid}`),
  );
  assert.equal(ran, false);
  assert.equal(readFileSync(lock, 'utf8'), theirs, 'the holder still has its lock');
  assert.ok(timing.clock.now() - manualClock().now() > LOCK_WAIT_MS);
});

test('a waiter keeps waiting while the lock changes hands, past LOCK_WAIT_MS in all, and then takes it', async () => {
  const lock = path.join(fresh(), 'secrets.json.lock');
  const start = manualClock().now();
  // Sixty writers one after another, each holding the lock 1 s of the test's clock: a minute of waiting in all.
  const holderAt = (now: number) => Math.floor((now - start) / 1000);
  writeFileSync(lock, `${process.pid}:writer-0`);
  const timing = testTiming((now) => {
    const holder = holderAt(now);
    if (holder < 60) writeFileSync(lock, `${process.pid}:writer-${holder}`);
    else rmSync(lock, { force: true });
  });
  let ran = false;
  await withFileLock(lock, () => (ran = true), timing);
  assert.ok(ran);
  assert.ok(timing.clock.now() - start >= 60_000, 'it waited for all sixty');
  assert.equal(existsSync(lock), false);
});

// A lock file shared between processes (O_EXCL create), with recovery of a lock left by a process that died.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '../process-alive.ts';

/**
 * How long one holder may keep the lock while a caller waits, before the caller gives up with an error naming the lock
 * file. A hold is a read, merge and fsynced replace of the file, milliseconds on a quiet machine; dozens of processes
 * starting at once on two busy cores have starved one for over 10 s.
 */
export const LOCK_WAIT_MS = 30_000;
/** How long a caller waits in all, however often the lock changes hands (many writers at once on a busy machine). */
export const LOCK_GIVE_UP_MS = 300_000;
const RETRY_MS = 5;

/** Thrown when one live holder keeps the lock for LOCK_WAIT_MS, or the lock stays busy for LOCK_GIVE_UP_MS. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
}

/** Where the waiting's time comes from: the wall clock, or a test's. */
export interface LockTiming {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const wallTiming: LockTiming = { now: Date.now, sleep };

/**
 * Runs `work` while holding `lockFile`, created with O_EXCL and holding the owner's pid and a random mark. A lock
 * whose process is gone is taken over (under a second lock, so two waiters never both remove it); a lock of a live
 * process is never taken over, however long it is held: the caller waits while the lock changes hands, and gives
 * up when one holder keeps it for LOCK_WAIT_MS (or all of them for LOCK_GIVE_UP_MS). The lock is removed afterwards,
 * also when `work` throws, unless another process has taken it over meanwhile (then it is theirs).
 */
export async function withFileLock<T>(lockFile: string, work: () => T | Promise<T>, timing: LockTiming = wallTiming): Promise<T> {
  const mark = newMark();
  const started = timing.now();
  let holder: string | undefined;
  let heldSince = started;
  for (;;) {
    if (tryAcquire(lockFile, mark)) break;
    const seen = holderOf(lockFile);
    if (seen !== undefined && ownerIsGone(seen)) {
      takeOver(lockFile, seen, mark);
      continue;
    }
    const now = timing.now();
    if (seen !== holder) {
      holder = seen;
      heldSince = now;
    }
    if (now - heldSince > LOCK_WAIT_MS) {
      throw new LockTimeoutError(
        `${lockFile} has been held by ${describeHolder(seen)} for over ${LOCK_WAIT_MS / 1000} s; ` +
          'if that is not a running Gatehouse, remove the lock file',
      );
    }
    if (now - started > LOCK_GIVE_UP_MS) {
      throw new LockTimeoutError(`${lockFile} stayed busy for over ${LOCK_GIVE_UP_MS / 1000} s: other Gatehouse processes kept taking it`);
    }
    await timing.sleep(RETRY_MS + Math.random() * RETRY_MS);
  }
  try {
    return await work();
  } finally {
    if (holderOf(lockFile) === mark) rmSync(lockFile, { force: true });
  }
}

/** `pid:random`: the owner, and which of its holds this is. */
const newMark = (): string => `${process.pid}:${randomBytes(8).toString('hex')}`;

/** What the lock file holds now (`pid:random`), or undefined when it is gone. */
function holderOf(lockFile: string): string | undefined {
  try {
    return readFileSync(lockFile, 'utf8');
  } catch {
    return undefined;
  }
}

function tryAcquire(lockFile: string, mark: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, mark);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes the lock `stale` of a dead process. Under the guard `<lock>.takeover`, and only while the lock still holds
 * `stale`: a waiter that judged the same lock stale a moment later finds another mark (a new live holder's) and leaves it.
 */
function takeOver(lockFile: string, stale: string, mark: string): void {
  const guard = `${lockFile}.takeover`;
  if (!tryAcquire(guard, mark)) {
    // A guard held only for two file operations; one left behind by a process that died then is removed.
    const guardHolder = holderOf(guard);
    if (guardHolder !== undefined && ownerIsGone(guardHolder) && holderOf(guard) === guardHolder) rmSync(guard, { force: true });
    return;
  }
  try {
    if (holderOf(lockFile) === stale) rmSync(lockFile, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

/** The pid a mark names, or undefined for an empty mark (a lock being written this very moment) or a garbled one. */
function pidOf(mark: string): number | undefined {
  const pid = Number(mark.split(':', 1)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** True when the mark's process no longer runs. */
function ownerIsGone(mark: string): boolean {
  const pid = pidOf(mark);
  return pid !== undefined && !isProcessAlive(pid);
}

function describeHolder(mark: string | undefined): string {
  const pid = mark === undefined ? undefined : pidOf(mark);
  return pid === undefined ? 'another process' : `process ${pid}`;
}

// A lock file shared between processes (O_EXCL create), with recovery of a lock left by a process that died.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a caller waits for the lock before giving up with an error naming the lock file. */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is taken over even when its owner looks alive (a holder keeps it for milliseconds). */
export const STALE_LOCK_MS = 30_000;
const RETRY_MS = 5;

/** Thrown when the lock stays held by a live process for LOCK_WAIT_MS. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
}

/**
 * Runs `work` while holding `lockFile`, created with O_EXCL and holding the owner's pid. A lock whose process is gone,
 * or that is older than STALE_LOCK_MS, is removed and taken over. The lock is removed afterwards, also when `work` throws,
 * unless another process has taken it over meanwhile (then it is theirs).
 */
export async function withFileLock<T>(lockFile: string, work: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const mark = `${process.pid}:${randomBytes(8).toString('hex')}`;
  for (;;) {
    if (tryAcquire(lockFile, mark)) break;
    if (isStale(lockFile)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new LockTimeoutError(
        `${lockFile} has been held by another process for over ${LOCK_WAIT_MS / 1000} s; if no Gatehouse is running, remove it`,
      );
    }
    await sleep(RETRY_MS + Math.random() * RETRY_MS);
  }
  try {
    return await work();
  } finally {
    if (holderOf(lockFile) === mark) rmSync(lockFile, { force: true });
  }
}

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

/** True when the lock's owner no longer runs, or the lock is older than STALE_LOCK_MS. */
function isStale(lockFile: string): boolean {
  try {
    const age = Date.now() - statSync(lockFile).mtimeMs;
    if (age > STALE_LOCK_MS) return true;
    const pid = Number(readFileSync(lockFile, 'utf8').split(':', 1)[0]);
    // An empty file is a lock being written this very moment: not stale.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    return !isAlive(pid);
  } catch {
    return false; // Gone meanwhile: the next try takes it.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

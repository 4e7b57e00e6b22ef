// Replaces a small file atomically and durably: a temporary file written at 0600 and fsynced, renamed over the old one, folder fsynced (or, for a file that only matters while its process runs, atomically alone).
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { randomBase62 } from './ids.ts';
import { PRIVATE_FILE_MODE } from './private-files.ts';

/**
 * A crash leaves the old or the new content whole, never half; the file ends at mode 0600 whatever the umask. With
 * `durable: false` nothing is synced to disk (a note that only matters while its process runs: no flush delays it).
 */
export function writeFileAtomic(file: string, text: string | Uint8Array, options: { durable?: boolean } = {}): void {
  placeWhole(file, text, (temporary) => renameSync(temporary, file), options.durable ?? true);
}

/**
 * Creates `file` whole or not at all, never replacing one already there (another writer's, even in another process): throws
 * an error with code `EEXIST` then. Like writeFileAtomic, a crash leaves no half file.
 */
export function createFileAtomic(file: string, text: string | Uint8Array): void {
  placeWhole(file, text, (temporary) => {
    // A hard link fails when the name is taken, where a rename would replace it.
    linkSync(temporary, file);
    rmSync(temporary);
  });
}

/** Writes `text` to a fresh temporary file beside `file` (0600; fsynced when `durable`), lets `place` put it at `file`, then syncs the folder (when `durable`). */
function placeWhole(file: string, text: string | Uint8Array, place: (temporary: string) => void, durable = true): void {
  // Unique per writer, so two processes replacing the same file never share a temporary file.
  const temporary = `${file}.${process.pid}.${randomBase62(8)}.tmp`;
  try {
    const fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
    try {
      if (typeof text === 'string') writeSync(fd, text);
      else writeSync(fd, text);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    place(temporary);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  if (durable) syncFolder(path.dirname(file));
}

/** Makes the rename itself durable; folders cannot be opened for fsync on Windows, where rename is already durable enough. */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

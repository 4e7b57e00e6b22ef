// Replaces a small file atomically and durably: a temporary file written at 0600 and fsynced, renamed over the old one, folder fsynced.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { randomBase62 } from './ids.ts';
import { PRIVATE_FILE_MODE } from './private-files.ts';

/** A crash leaves the old or the new content whole, never half; the file ends at mode 0600 whatever the umask. */
export function writeFileAtomic(file: string, text: string | Uint8Array): void {
  // Unique per writer, so two processes replacing the same file never share a temporary file.
  const temporary = `${file}.${process.pid}.${randomBase62(8)}.tmp`;
  try {
    const fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
    try {
      if (typeof text === 'string') writeSync(fd, text);
      else writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(path.dirname(file));
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

// Owner-only modes for everything Gatehouse keeps on disk (data dir 0700, files 0600), set explicitly so the umask does not matter.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Mode of the data dir and every folder Gatehouse makes in it (and of the settings file's folder). */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file Gatehouse writes: the database and its -wal/-shm, generated files, TLS files, secrets, settings. */
export const PRIVATE_FILE_MODE = 0o600;

/** Windows has no POSIX modes; there the user's profile folder already keeps other users out. */
const POSIX = process.platform !== 'win32';

/**
 * Makes `dir` (and missing parents) and leaves it at 0700. An existing folder that others may enter is tightened
 * too: it holds the journal's prompts. Fails only when the folder cannot be made; a chmod refused (a folder owned
 * by someone else) is left to the writability check that follows.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!POSIX) return;
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Creates `file` empty at 0600 when missing, else tightens it to 0600 (before a library such as SQLite opens it with its own mode). */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (POSIX) tighten(file, PRIVATE_FILE_MODE);
}

/** Sets an existing file or folder to exactly `mode`; a missing path is left alone. */
export function tightenIfPresent(target: string, mode: number = PRIVATE_FILE_MODE): void {
  if (POSIX && existsSync(target)) tighten(target, mode);
}

function tighten(target: string, mode: number): void {
  try {
    if ((statSync(target).mode & 0o777) !== mode) chmodSync(target, mode);
  } catch {
    // Not ours to change (another owner): whatever we cannot write shows up in the writability check, with a clear message.
  }
}

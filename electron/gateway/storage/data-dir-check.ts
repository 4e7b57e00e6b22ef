// Start-up checks of the data dir and database: writable, a database at all, intact; each failure a DataDirError that says what to do.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

/** What is wrong with the data dir or its database. */
export type DataDirProblem = 'unwritable' | 'not_a_database' | 'corrupt' | 'newer_schema';

/** Thrown before the gateway listens when its data dir cannot be used; the message names the path and the fix. */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
  readonly problem: DataDirProblem;
  /** The folder or file at fault. */
  readonly path: string;
  constructor(problem: DataDirProblem, target: string, message: string) {
    super(message);
    this.problem = problem;
    this.path = target;
  }
}

/**
 * The integrity pragma run at every open. `quick_check` reads every page and checks the b-trees, records and
 * constraints, but not that each index matches its table: O(N) instead of integrity_check's O(N log N), so a
 * large journal does not delay every start (and every `gatehouse token` command) by seconds.
 */
export const INTEGRITY_PRAGMA = 'quick_check';

const unwritable = (target: string, cause: unknown) =>
  new DataDirError(
    'unwritable',
    target,
    `The data dir ${target} is not writable (${reasonOf(cause)}): Gatehouse stores every write there. ` +
      'Give your user write access to it (and to the files in it), or choose another folder with --data-dir.',
  );

/** Creates and removes a probe file: root ignores permission bits, so only a real write tells. */
export function assertWritableDir(dir: string): void {
  const probe = path.join(dir, `.write-check-${process.pid}-${Date.now()}`);
  try {
    const fd = openSync(probe, 'wx', 0o600);
    try {
      writeSync(fd, 'ok');
    } finally {
      closeSync(fd);
    }
    rmSync(probe, { force: true });
  } catch (error) {
    throw unwritable(dir, error);
  }
}

/** The data dir's folder itself could not be made or entered. */
export function dataDirUnusable(dir: string, cause: unknown): DataDirError {
  return unwritable(dir, cause);
}

/**
 * Runs on a freshly opened database: takes the write lock once (a read-only file or a folder without room for the
 * WAL fails here, not on the first request) and runs the integrity pragma. Throws a DataDirError naming `file`.
 */
export function assertUsableDatabase(db: Database.Database, file: string): void {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
  } catch (error) {
    throw classify(error, file);
  }
  let problems: string[];
  try {
    problems = (db.pragma(INTEGRITY_PRAGMA) as Record<string, string>[]).map((row) => Object.values(row)[0] ?? '');
  } catch (error) {
    throw classify(error, file);
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  throw corrupt(file, problems.slice(0, 3).join('; '));
}

/** Maps an SQLite error met while opening `file` to a DataDirError, or returns it unchanged when it is none of ours. */
export function classify(error: unknown, file: string): Error {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return error as Error;
  if (code === 'SQLITE_NOTADB') {
    return new DataDirError(
      'not_a_database',
      file,
      `${file} is not a Gatehouse database (SQLite says: ${reasonOf(error)}). ` +
        'Move it away (Gatehouse then starts with an empty database) or point --data-dir at the right folder.',
    );
  }
  if (code.startsWith('SQLITE_CORRUPT')) return corrupt(file, reasonOf(error));
  if (
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code === 'SQLITE_PERM' ||
    code.startsWith('SQLITE_IOERR')
  ) {
    return new DataDirError(
      'unwritable',
      file,
      `The database ${file} cannot be written (${reasonOf(error)}). ` +
        'Give your user write access to it and to its folder (the -wal and -shm files beside it too), or choose another folder with --data-dir.',
    );
  }
  return error as Error;
}

function corrupt(file: string, details: string): DataDirError {
  return new DataDirError(
    'corrupt',
    file,
    `The database ${file} is damaged (PRAGMA ${INTEGRITY_PRAGMA}: ${details}). Stop every Gatehouse using it, keep a copy, ` +
      `then try \`sqlite3 ${file} .recover | sqlite3 recovered.sqlite\` and move the recovered file in its place, ` +
      'or move the file away to start with an empty database.',
  );
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

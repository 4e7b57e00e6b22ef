// Refuses a database a newer Gatehouse wrote (a schema step recorded in it that this build does not know), before anything is written to it.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { DataDirError } from './data-dir-check.ts';
import type { Migration } from './migrations/index.ts';

/**
 * Throws a DataDirError (`newer_schema`) when `db` records a schema step that is not among `steps`: a version in its
 * `schema_migrations` this build has no step of, or a `user_version` (the level files older than that table kept) above
 * this build's highest. Any unknown step counts, also one numbered below this build's highest (a step of work merged
 * in another order): this build cannot know what it changed. Only reads.
 */
export function assertKnownSchema(db: Database.Database, file: string, steps: readonly Migration[]): void {
  const known = new Set(steps.map((step) => step.version));
  const knownLevel = Math.max(0, ...known);
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
  // No `pluck()`: a gateway's `db.prepare` shares one statement per text (statement-cache.ts), so its mode must not change.
  const rows = hasTable ? (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]) : [];
  const recorded = rows.map((row) => row.version);
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  const unknown = recorded.filter((version) => !known.has(version));
  if (userVersion > knownLevel) unknown.push(userVersion);
  if (unknown.length === 0) return;
  throw newerSchema(file, Math.max(userVersion, ...recorded), knownLevel, unknown);
}

/**
 * Checks the schema of the file at `file`, when there is one, on a read-only connection, so a refused file is left byte
 * for byte as it was (a read-write connection would checkpoint a WAL a crashed newer Gatehouse left into it on close).
 * Throws only the refusal: a file that cannot be read here is left to the read-write open that follows, which names
 * its problem.
 */
export function refuseNewerFile(file: string, steps: readonly Migration[]): void {
  if (!existsSync(file)) return;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    assertKnownSchema(db, file, steps);
  } catch (error) {
    if (error instanceof DataDirError) throw error;
  } finally {
    db?.close();
  }
}

function newerSchema(file: string, level: number, knownLevel: number, unknown: number[]): DataDirError {
  const which = level > knownLevel ? `schema ${level}` : `schema step ${unknown.join(', ')}, which this one lacks`;
  return new DataDirError(
    'newer_schema',
    file,
    `The database ${file} was written by a newer Gatehouse (${which}); this Gatehouse knows schema ${knownLevel}: ` +
      'upgrade Gatehouse, or start with another --data-dir (the Data folder setting in the desktop app). The file was not changed.',
  );
}

// Opens the SQLite files with the gateway's pragmas (WAL, foreign keys, full sync, busy timeout) and applies migrations.
import Database from 'better-sqlite3';
import path from 'node:path';
import { assertUsableDatabase, assertWritableDir, classify, dataDirUnusable } from './data-dir-check.ts';
import { migrations, type Migration } from './migrations/index.ts';
import { assertKnownSchema, refuseNewerFile } from './schema-level.ts';
import { cacheStatements } from './statement-cache.ts';
import { guardConnection } from './sync-mode.ts';
import { ensurePrivateDir, ensurePrivateFile, tightenIfPresent } from '../private-files.ts';

export type Db = Database.Database;

/** File name of the database inside the data dir. */
export const DATABASE_FILE = 'gatehouse.sqlite';

/** What to do with the product database before its schema is brought up to date. */
export interface OpenDatabaseOptions {
  /** Runs on the opened file before the migrations (on every open): hands data a migration is about to drop to its new owner. */
  beforeMigrate?: (db: Db) => void;
}

/**
 * Opens (creating if needed) `<dataDir>/gatehouse.sqlite` and brings its schema up to date.
 * `synchronous = FULL` makes every committed write durable before the request is answered (the bookkeeping group
 * commit switches to NORMAL for its own transactions, and every other write back to FULL: see sync-mode.ts).
 * The data dir is kept at 0700 and the database with its -wal/-shm at 0600. A data dir that cannot be written, a file
 * that is no database, a database failing the integrity check or one a newer Gatehouse wrote throws a DataDirError (see
 * data-dir-check.ts and schema-level.ts).
 */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Db {
  return openSqliteFile(dataDir, DATABASE_FILE, migrations, options.beforeMigrate);
}

/**
 * Opens (creating if needed) `<dataDir>/<fileName>` as the product database is opened: the same pragmas and durability,
 * owner-only modes, start-up checks and DataDirErrors; then applies `steps` (its own numbered schema steps). A file that
 * records a step not among `steps` (written by a newer Gatehouse) is refused before anything is written to it.
 */
export function openSqliteFile(dataDir: string, fileName: string, steps: readonly Migration[], beforeMigrate?: (db: Db) => void): Db {
  try {
    ensurePrivateDir(dataDir);
  } catch (error) {
    throw dataDirUnusable(dataDir, error);
  }
  assertWritableDir(dataDir);
  const file = path.join(dataDir, fileName);
  refuseNewerFile(file, steps);
  let db: Db | undefined;
  try {
    ensurePrivateFile(file);
    db = connect(file);
    assertUsableDatabase(db, file);
    beforeMigrate?.(db);
    migrate(db, steps);
    return db;
  } catch (error) {
    db?.close();
    throw classify(error, file);
  }
}

/**
 * Opens again a file this process opened with `openSqliteFile` (its checks passed, its schema is current): only the
 * connection and its pragmas, without the start-up checks (a write probe, the schema levels, an integrity check that
 * reads every page), so a thread that reopens the file after an idle end does not redo them.
 */
export function reopenSqliteFile(dataDir: string, fileName: string): Db {
  const file = path.join(dataDir, fileName);
  try {
    return connect(file);
  } catch (error) {
    throw classify(error, file);
  }
}

/** A connection to `file` with the gateway's pragmas (WAL, FULL durability, foreign keys, a busy timeout) and owner-only WAL files. */
function connect(file: string): Db {
  const db = new Database(file);
  try {
    const syncMode = guardConnection(db);
    cacheStatements(db, (statement) => syncMode.guard(statement));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${file}${suffix}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, each in its own write transaction, so a
 * step numbered below one already applied (work merged in another order) still runs exactly once. A file recording a
 * step not among `steps` is refused first (a DataDirError), with nothing written.
 */
export function migrate(db: Db, steps: readonly Migration[] = migrations): void {
  assertKnownSchema(db, db.name, steps);
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  adoptUserVersion(db, steps);
  // Up to date (every start but the first after an upgrade): one read instead of a write transaction per step.
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version));
  if (steps.every((migration) => applied.has(migration.version))) return;
  for (const migration of steps) {
    db.transaction(() => {
      // Checked inside the write lock, so two processes opening one new file never apply a step twice.
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version)) return;
      if (migration.schemaSql) db.exec(migration.schemaSql(db));
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      );
    }).immediate();
  }
}

/** Files made before `schema_migrations` existed recorded their level in `user_version`: adopt it once. */
function adoptUserVersion(db: Db, steps: readonly Migration[]): void {
  const level = db.pragma('user_version', { simple: true }) as number;
  if (level === 0) return;
  db.transaction(() => {
    for (const migration of steps) {
      if (migration.version > level) continue;
      db.prepare('INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      );
    }
    db.pragma('user_version = 0');
  }).immediate();
}

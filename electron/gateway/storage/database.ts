// Opens the SQLite file with the gateway's pragmas (WAL, foreign keys, full sync, busy timeout) and applies migrations.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { migrations } from './migrations/index.ts';

export type Db = Database.Database;

/** File name of the database inside the data dir. */
export const DATABASE_FILE = 'gatehouse.sqlite';

/**
 * Opens (creating if needed) `<dataDir>/gatehouse.sqlite` and brings its schema up to date.
 * `synchronous = FULL` makes every committed write durable before the request is answered.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/** Applies every migration newer than the file's `user_version`, each in its own transaction. */
export function migrate(db: Db): void {
  for (const migration of migrations) {
    db.transaction(() => {
      // Read inside the write lock, so two processes opening one new file never apply a step twice.
      const current = db.pragma('user_version', { simple: true }) as number;
      if (migration.version <= current) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

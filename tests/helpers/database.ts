// Test helper: a migrated SQLite database in a temp dir, closed and removed after the test file.
import { rmSync } from 'node:fs';
import { after } from 'node:test';
import { openDatabase, type Db } from '../../electron/gateway/storage/database.ts';
import { tempDataDir } from './gateway.ts';

export function tempDatabase(): Db {
  const dir = tempDataDir();
  const db = openDatabase(dir);
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

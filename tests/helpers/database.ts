// Test helper: a migrated SQLite database in a temp dir, closed and removed after the test file.
import { rmSync } from 'node:fs';
import { after } from 'node:test';
import { openSimulateStore } from '../../electron/gateway/providers/simulate/store.ts';
import { openDatabase, type Db } from '../../electron/gateway/storage/database.ts';
import { tempDataDir } from './gateway.ts';

export function tempDatabase(): Db {
  return tempFile(openDatabase);
}

/** The simulator's store (simulate.sqlite) in a temp dir, closed and removed after the test file. */
export function tempSimulateStore(): Db {
  return tempFile(openSimulateStore);
}

function tempFile(open: (dir: string) => Db): Db {
  const dir = tempDataDir();
  const db = open(dir);
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

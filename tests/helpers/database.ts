// Test helper: a migrated SQLite database in a temp dir, closed and removed after the test file.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { openSimulateStore } from '../../electron/gateway/providers/simulate/store.ts';
import { AccountsRepo, type AccountRow } from '../../electron/gateway/storage/accounts-repo.ts';
import { openDatabase, type Db } from '../../electron/gateway/storage/database.ts';
import { GroupsRepo, type GroupRow } from '../../electron/gateway/storage/groups-repo.ts';
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

/** An account (made when missing) and a new portrait group of it, written through the storage layer. */
export function seedGroup(db: Db, accountName: string, groupId: string, now: number): { account: AccountRow; group: GroupRow } {
  const account = new AccountsRepo(db).ensure(accountName, now);
  const group = new GroupsRepo(db).insert({
    group_id: groupId,
    account_id: account.id,
    name: groupId,
    description: '',
    group_type: 'AIGC',
    created_at: now,
    updated_at: now,
  });
  return { account, group };
}

/** An account (made when missing) with API token rows of the given ids, written straight to the tables (no secrets). */
export function seedTokens(db: Db, accountName: string, tokenIds: readonly string[]): AccountRow {
  const account = new AccountsRepo(db).ensure(accountName, 0);
  const insert = db.prepare(
    "INSERT INTO tokens (token_id, account_id, name, token_hash, token_hint, created_at) VALUES (?, ?, ?, ?, 'hint', 0)",
  );
  for (const tokenId of tokenIds) insert.run(tokenId, account.id, tokenId, `hash-${tokenId}`);
  return account;
}

/**
 * Runs a count query on a copy of a SQLite file without its WAL: what checkpoints have copied into the file so far.
 * -1 when the copy cannot be read yet (taken while a checkpoint wrote the file, or before the table reached it).
 */
export function countInFileAlone(file: string, sql: string): number {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-file-alone-'));
  const copy = path.join(scratch, 'copy.sqlite');
  try {
    copyFileSync(file, copy);
    const alone = new Database(copy, { readonly: true });
    try {
      return Object.values(alone.prepare(sql).get() as Record<string, number>)[0] ?? -1;
    } finally {
      alone.close();
    }
  } catch {
    return -1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

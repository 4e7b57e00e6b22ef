// Test helper: a migrated SQLite database in a temp dir, closed and removed after the test file.
import { rmSync } from 'node:fs';
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

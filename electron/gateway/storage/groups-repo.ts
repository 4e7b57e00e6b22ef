// Repository of portrait groups; every query is scoped by account.
import type { Db } from './database.ts';
import { ASSETS_TABLE } from './assets-repo.ts';
import { noteWrite } from './read-cache.ts';

/** A portrait group row. `id` is internal and never leaves the gateway. */
export interface GroupRow {
  id: number;
  group_id: string;
  account_id: number;
  name: string;
  description: string;
  group_type: string;
  created_at: number;
  updated_at: number;
}

export type NewGroup = Omit<GroupRow, 'id'>;

/** Fields a group update may change; absent fields stay as they are. */
export interface GroupChanges {
  name?: string;
  description?: string;
  updated_at: number;
}

export class GroupsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(group: NewGroup): GroupRow {
    const result = this.db
      .prepare(
        `INSERT INTO portrait_groups (group_id, account_id, name, description, group_type, created_at, updated_at)
         VALUES (@group_id, @account_id, @name, @description, @group_type, @created_at, @updated_at)`,
      )
      .run(group);
    return { ...group, id: Number(result.lastInsertRowid) };
  }

  find(accountId: number, groupId: string): GroupRow | undefined {
    return this.db.prepare('SELECT * FROM portrait_groups WHERE account_id = ? AND group_id = ?').get(accountId, groupId) as
      GroupRow | undefined;
  }

  findByRef(id: number): GroupRow | undefined {
    return this.db.prepare('SELECT * FROM portrait_groups WHERE id = ?').get(id) as GroupRow | undefined;
  }

  /** One page of an account's groups, oldest first, with the account's total. */
  page(accountId: number, limit: number, offset: number): { rows: GroupRow[]; total: number } {
    const rows = this.db
      .prepare('SELECT * FROM portrait_groups WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?')
      .all(accountId, limit, offset) as GroupRow[];
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM portrait_groups WHERE account_id = ?').get(accountId) as {
      n: number;
    };
    return { rows, total: n };
  }

  /** Deletes a group (by internal id) and its assets in one transaction; returns how many assets went with it. */
  deleteWithAssets(id: number): number {
    return this.db
      .transaction(() => {
        const { changes } = this.db.prepare('DELETE FROM portrait_assets WHERE group_ref = ?').run(id);
        this.db.prepare('DELETE FROM portrait_groups WHERE id = ?').run(id);
        noteWrite(this.db, ASSETS_TABLE);
        return changes;
      })
      .immediate();
  }

  update(id: number, changes: GroupChanges): void {
    this.db
      .prepare(
        `UPDATE portrait_groups SET
           name = COALESCE(@name, name),
           description = COALESCE(@description, description),
           updated_at = @updated_at
         WHERE id = @id`,
      )
      .run({ id, name: changes.name ?? null, description: changes.description ?? null, updated_at: changes.updated_at });
  }
}

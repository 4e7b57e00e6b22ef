// One account's sized rows of a stored-object table (responses, chat completions, conversations): their bytes, the oldest, deletion, which byte quotas evict by.
import type { Db } from './database.ts';

/** A table with `id`, `account_id`, `bytes` and a public id column, and the ORDER BY that lists its rows oldest first. */
export interface SizedTable {
  table: string;
  idColumn: string;
  oldestFirst: string;
}

/** The sized rows of `spec`'s table (table, column and order are the code's own constants, never input). */
export class SizedRows {
  private readonly db: Db;
  private readonly spec: SizedTable;
  constructor(db: Db, spec: SizedTable) {
    this.db = db;
    this.spec = spec;
  }

  accountBytes(accountId: number): number {
    const { table } = this.spec;
    return (this.db.prepare(`SELECT COALESCE(SUM(bytes), 0) AS n FROM ${table} WHERE account_id = ?`).get(accountId) as { n: number }).n;
  }

  /** The account's oldest rows other than `exceptId`: row ids and sizes. */
  oldest(accountId: number, exceptId: string, limit: number): { id: number; bytes: number }[] {
    const { table, idColumn, oldestFirst } = this.spec;
    return this.db
      .prepare(`SELECT id, bytes FROM ${table} WHERE account_id = ? AND ${idColumn} != ? ORDER BY ${oldestFirst} LIMIT ?`)
      .all(accountId, exceptId, limit) as { id: number; bytes: number }[];
  }

  deleteRows(ids: readonly number[]): void {
    const statement = this.db.prepare(`DELETE FROM ${this.spec.table} WHERE id = ?`);
    for (const id of ids) statement.run(id);
  }
}

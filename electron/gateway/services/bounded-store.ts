// Keeps one account's stored objects (responses, chat completions) within its byte quota by evicting its oldest first.

/** What eviction needs of a repository of stored objects with sizes. */
export interface SizedRows {
  accountBytes(accountId: number): number;
  /** The account's oldest rows other than `exceptId`: row ids and sizes. */
  oldest(accountId: number, exceptId: string, limit: number): { id: number; bytes: number }[];
  deleteRows(ids: readonly number[]): void;
}

/** While the account's stored bytes exceed `quota`, deletes its oldest rows (never `keepId`, the one just stored). Call inside the write's transaction. */
export function evictOverQuota(rows: SizedRows, accountId: number, keepId: string, quota: number): void {
  let over = rows.accountBytes(accountId) - quota;
  while (over > 0) {
    const oldest = rows.oldest(accountId, keepId, 100);
    if (oldest.length === 0) break;
    const evicted = [];
    for (const row of oldest) {
      if (over <= 0) break;
      evicted.push(row.id);
      over -= row.bytes;
    }
    rows.deleteRows(evicted);
  }
}

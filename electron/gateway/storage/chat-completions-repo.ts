// Repository of stored chat completions (`store: true`); every query is scoped by account, sizes are kept to bound stored bytes.
import { cursorRows, type CursorAsk, type CursorRows } from './cursor-rows.ts';
import type { Db } from './database.ts';
import { SizedRows } from './sized-rows.ts';

/** A stored chat completion: the request's messages, its metadata and the ChatCompletion object. */
export interface StoredChatCompletionRow {
  id: number;
  completion_id: string;
  account_id: number;
  model: string;
  metadata_json: string;
  /** JSON array of the request's messages as sent. */
  messages_json: string;
  completion_json: string;
  created_at: number;
  bytes: number;
}

/** The filters of a list call. */
export interface ChatCompletionFilter {
  model?: string;
  metadata?: Readonly<Record<string, string>>;
  /** Completions created before this time have expired. */
  notBefore: number;
}

export class ChatCompletionsRepo {
  private readonly db: Db;
  /** The account's stored completions with their sizes, oldest first: what its byte quota evicts by. */
  readonly sized: SizedRows;
  constructor(db: Db) {
    this.db = db;
    this.sized = new SizedRows(db, { table: 'stored_chat_completions', idColumn: 'completion_id', oldestFirst: 'id' });
  }

  insert(row: Omit<StoredChatCompletionRow, 'id'>): void {
    this.db
      .prepare(
        `INSERT INTO stored_chat_completions (completion_id, account_id, model, metadata_json, messages_json, completion_json, created_at, bytes)
         VALUES (@completion_id, @account_id, @model, @metadata_json, @messages_json, @completion_json, @created_at, @bytes)`,
      )
      .run(row);
  }

  find(accountId: number, completionId: string, notBefore: number): StoredChatCompletionRow | undefined {
    return this.db
      .prepare('SELECT * FROM stored_chat_completions WHERE account_id = ? AND completion_id = ? AND created_at >= ?')
      .get(accountId, completionId, notBefore) as StoredChatCompletionRow | undefined;
  }

  /** A page of the account's completions matching `filter` (every metadata pair must match). */
  list(accountId: number, filter: ChatCompletionFilter, ask: CursorAsk): CursorRows<StoredChatCompletionRow> {
    const where = ['created_at >= ?'];
    const params: unknown[] = [filter.notBefore];
    if (filter.model !== undefined) {
      where.push('model = ?');
      params.push(filter.model);
    }
    for (const [key, value] of Object.entries(filter.metadata ?? {})) {
      where.push(
        "EXISTS (SELECT 1 FROM json_each(metadata_json) WHERE json_each.key = ? AND json_each.value = ? AND json_each.type = 'text')",
      );
      params.push(key, value);
    }
    return cursorRows(
      this.db,
      { table: 'stored_chat_completions', idColumn: 'completion_id', accountId, where: where.join(' AND '), params },
      ask,
    );
  }

  /** Replaces the metadata of a completion (both the column and the object's own field); false when the account has none with that id. */
  updateMetadata(accountId: number, completionId: string, metadataJson: string, completionJson: string): boolean {
    return (
      this.db
        .prepare('UPDATE stored_chat_completions SET metadata_json = ?, completion_json = ? WHERE account_id = ? AND completion_id = ?')
        .run(metadataJson, completionJson, accountId, completionId).changes > 0
    );
  }

  delete(accountId: number, completionId: string): boolean {
    return (
      this.db.prepare('DELETE FROM stored_chat_completions WHERE account_id = ? AND completion_id = ?').run(accountId, completionId)
        .changes > 0
    );
  }

  /** Deletes at most `limit` completions (of any account) created before `before`. */
  deleteExpired(before: number, limit: number): number {
    return this.db
      .prepare(
        'DELETE FROM stored_chat_completions WHERE id IN (SELECT id FROM stored_chat_completions WHERE created_at < ? ORDER BY created_at LIMIT ?)',
      )
      .run(before, limit).changes;
  }
}

// Repository of Conversations API conversations; every query is scoped by account, and sizes are kept to bound stored bytes.
import type { Db } from './database.ts';
import { SizedRows } from './sized-rows.ts';

/** A stored conversation: its metadata and items (JSON), size, and when it was made and last changed. */
export interface ConversationRow {
  id: number;
  conversation_id: string;
  account_id: number;
  metadata_json: string;
  /** JSON array of the conversation's items, oldest first, each with its id. */
  items_json: string;
  /** UTF-8 bytes of both JSON texts. */
  bytes: number;
  created_at: number;
  updated_at: number;
}

export class ConversationsRepo {
  private readonly db: Db;
  /** The account's conversations with their sizes, least recently changed first: what its byte quota evicts by. */
  readonly sized: SizedRows;
  constructor(db: Db) {
    this.db = db;
    this.sized = new SizedRows(db, { table: 'conversations', idColumn: 'conversation_id', oldestFirst: 'updated_at, id' });
  }

  insert(row: Omit<ConversationRow, 'id'>): void {
    this.db
      .prepare(
        `INSERT INTO conversations (conversation_id, account_id, metadata_json, items_json, bytes, created_at, updated_at)
         VALUES (@conversation_id, @account_id, @metadata_json, @items_json, @bytes, @created_at, @updated_at)`,
      )
      .run(row);
  }

  /** One of the account's conversations last changed at or after `notBefore` (older ones have expired). */
  find(accountId: number, conversationId: string, notBefore: number): ConversationRow | undefined {
    return this.db
      .prepare('SELECT * FROM conversations WHERE account_id = ? AND conversation_id = ? AND updated_at >= ?')
      .get(accountId, conversationId, notBefore) as ConversationRow | undefined;
  }

  /** Replaces a conversation's metadata, items and size. */
  update(
    accountId: number,
    conversationId: string,
    row: Pick<ConversationRow, 'metadata_json' | 'items_json' | 'bytes' | 'updated_at'>,
  ): void {
    this.db
      .prepare(
        `UPDATE conversations SET metadata_json = @metadata_json, items_json = @items_json, bytes = @bytes, updated_at = @updated_at
         WHERE account_id = @account_id AND conversation_id = @conversation_id`,
      )
      .run({ ...row, account_id: accountId, conversation_id: conversationId });
  }

  /** False when the account has no conversation with that id. */
  delete(accountId: number, conversationId: string): boolean {
    return (
      this.db.prepare('DELETE FROM conversations WHERE account_id = ? AND conversation_id = ?').run(accountId, conversationId).changes > 0
    );
  }

  accountCount(accountId: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /** Deletes at most `limit` conversations (of any account) last changed before `before`; returns how many. */
  deleteExpired(before: number, limit: number): number {
    return this.db
      .prepare('DELETE FROM conversations WHERE id IN (SELECT id FROM conversations WHERE updated_at < ? ORDER BY updated_at LIMIT ?)')
      .run(before, limit).changes;
  }
}

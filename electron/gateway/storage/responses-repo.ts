// Repository of stored Responses API responses; every query is scoped by account, and sizes are kept to bound stored bytes.
import type { Db } from './database.ts';
import { SizedRows } from './sized-rows.ts';

/** A stored response: the conversation items it answered (earlier turns included) and the Response object. */
export interface StoredResponseRow {
  response_id: string;
  account_id: number;
  /** JSON array of the input items of the whole conversation up to this response. */
  context_json: string;
  /** JSON of the Response object as returned to the caller. */
  response_json: string;
  created_at: number;
  /** UTF-8 bytes of both JSON texts. */
  bytes: number;
  /** How many items of the context came from earlier responses: the rest are this response's own input. */
  input_from: number;
  /** A background response: when it is done (before then callers see it queued or in progress); null for others. */
  ready_at: number | null;
}

export class ResponsesRepo {
  private readonly db: Db;
  /** The account's stored responses with their sizes, oldest first: what its byte quota evicts by. */
  readonly sized: SizedRows;
  constructor(db: Db) {
    this.db = db;
    this.sized = new SizedRows(db, { table: 'stored_responses', idColumn: 'response_id', oldestFirst: 'id' });
  }

  insert(row: StoredResponseRow): void {
    this.db
      .prepare(
        `INSERT INTO stored_responses (response_id, account_id, context_json, response_json, created_at, bytes, input_from, ready_at)
         VALUES (@response_id, @account_id, @context_json, @response_json, @created_at, @bytes, @input_from, @ready_at)`,
      )
      .run(row);
  }

  /** One of the account's responses created at or after `notBefore` (older ones have expired). */
  find(accountId: number, responseId: string, notBefore: number): StoredResponseRow | undefined {
    return this.db
      .prepare('SELECT * FROM stored_responses WHERE account_id = ? AND response_id = ? AND created_at >= ?')
      .get(accountId, responseId, notBefore) as StoredResponseRow | undefined;
  }

  /** Replaces a response's object and its background time (a cancelled background response); false when the account has none with that id. */
  update(accountId: number, responseId: string, responseJson: string, readyAt: number | null): boolean {
    return (
      this.db
        .prepare('UPDATE stored_responses SET response_json = ?, ready_at = ? WHERE account_id = ? AND response_id = ?')
        .run(responseJson, readyAt, accountId, responseId).changes > 0
    );
  }

  /** Deletes one of the account's responses; false when it has none with that id. */
  delete(accountId: number, responseId: string): boolean {
    return this.db.prepare('DELETE FROM stored_responses WHERE account_id = ? AND response_id = ?').run(accountId, responseId).changes > 0;
  }

  /** Bytes the account's stored responses take. */
  /** Deletes at most `limit` responses (of any account) created before `before`; returns how many. */
  deleteExpired(before: number, limit: number): number {
    return this.db
      .prepare(
        'DELETE FROM stored_responses WHERE id IN (SELECT id FROM stored_responses WHERE created_at < ? ORDER BY created_at LIMIT ?)',
      )
      .run(before, limit).changes;
  }
}

// Repository of stored Responses API responses; every query is scoped by account.
import type { Db } from './database.ts';

/** A stored response: the conversation items it answered (earlier turns included) and the Response object. */
export interface StoredResponseRow {
  response_id: string;
  account_id: number;
  /** JSON array of the input items of the whole conversation up to this response. */
  context_json: string;
  /** JSON of the Response object as returned to the caller. */
  response_json: string;
  created_at: number;
}

export class ResponsesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(row: StoredResponseRow): void {
    this.db
      .prepare(
        `INSERT INTO stored_responses (response_id, account_id, context_json, response_json, created_at)
         VALUES (@response_id, @account_id, @context_json, @response_json, @created_at)`,
      )
      .run(row);
  }

  find(accountId: number, responseId: string): StoredResponseRow | undefined {
    return this.db
      .prepare('SELECT * FROM stored_responses WHERE account_id = ? AND response_id = ?')
      .get(accountId, responseId) as StoredResponseRow | undefined;
  }

  /** Deletes one of the account's responses; false when it has none with that id. */
  delete(accountId: number, responseId: string): boolean {
    return this.db.prepare('DELETE FROM stored_responses WHERE account_id = ? AND response_id = ?').run(accountId, responseId).changes > 0;
  }
}

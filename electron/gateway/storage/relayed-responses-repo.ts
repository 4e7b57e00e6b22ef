// Repository of relayed response ids: the channel (and the model asked) that stored each one, scoped by account.
import type { Db } from './database.ts';

/** One response an upstream channel stored for an account. */
export interface RelayedResponseRow {
  account_id: number;
  response_id: string;
  channel_id: string;
  /** The model the caller named when the response was created. */
  model: string;
  created_at: number;
}

export class RelayedResponsesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Records (or re-records) where the account's response lives. */
  put(row: RelayedResponseRow): void {
    this.db
      .prepare(
        `INSERT INTO relayed_responses (account_id, response_id, channel_id, model, created_at)
         VALUES (@account_id, @response_id, @channel_id, @model, @created_at)
         ON CONFLICT (account_id, response_id) DO UPDATE SET channel_id = excluded.channel_id, model = excluded.model`,
      )
      .run(row);
  }

  find(accountId: number, responseId: string): RelayedResponseRow | undefined {
    return this.db.prepare('SELECT * FROM relayed_responses WHERE account_id = ? AND response_id = ?').get(accountId, responseId) as
      RelayedResponseRow | undefined;
  }

  /** Deletes at most `limit` of the oldest rows made before `before`; returns how many went. */
  deleteOlderThan(before: number, limit: number): number {
    return this.db
      .prepare(
        'DELETE FROM relayed_responses WHERE rowid IN (SELECT rowid FROM relayed_responses WHERE created_at < ? ORDER BY created_at LIMIT ?)',
      )
      .run(before, limit).changes;
  }

  delete(accountId: number, responseId: string): void {
    this.db.prepare('DELETE FROM relayed_responses WHERE account_id = ? AND response_id = ?').run(accountId, responseId);
  }
}

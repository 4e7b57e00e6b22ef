// Repository of the usage ledger: records billed calls and charges the token in the same transaction.
import type { Db } from './database.ts';

/** One billed call. */
export interface UsageRecord {
  account_id: number;
  token_id: string;
  endpoint: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  amount_micros: number;
  created_at: number;
}

export class UsageRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Appends a record and adds its amount to the token's usage, atomically. */
  record(entry: UsageRecord): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO usage_records (account_id, token_id, endpoint, model, input_tokens, output_tokens, amount_micros, created_at)
           VALUES (@account_id, @token_id, @endpoint, @model, @input_tokens, @output_tokens, @amount_micros, @created_at)`,
        )
        .run(entry);
      this.db.prepare('UPDATE tokens SET used_micros = used_micros + ? WHERE token_id = ?').run(entry.amount_micros, entry.token_id);
    })();
  }

  /** A token's records, newest first. */
  forToken(tokenId: string, limit = 100): (UsageRecord & { id: number })[] {
    return this.db
      .prepare('SELECT * FROM usage_records WHERE token_id = ? ORDER BY id DESC LIMIT ?')
      .all(tokenId, limit) as (UsageRecord & { id: number })[];
  }
}

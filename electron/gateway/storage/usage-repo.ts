// Repository of the usage ledger: records billed calls and charges the token in the same transaction; rolls old records up into daily totals.
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
  /** `record`'s transaction, made once (making it on every charge was a visible share of the charge). */
  private readonly recordAtomically: (entry: UsageRecord) => void;
  constructor(db: Db) {
    this.db = db;
    this.recordAtomically = db.transaction((entry: UsageRecord) => {
      this.db
        .prepare(
          `INSERT INTO usage_records (account_id, token_id, endpoint, model, input_tokens, output_tokens, amount_micros, created_at)
           VALUES (@account_id, @token_id, @endpoint, @model, @input_tokens, @output_tokens, @amount_micros, @created_at)`,
        )
        .run(entry);
      this.db.prepare('UPDATE tokens SET used_micros = used_micros + ? WHERE token_id = ?').run(entry.amount_micros, entry.token_id);
      // The dashboard's per-day totals, kept as each call is charged (never rebuilt from the ledger).
      this.db
        .prepare(
          `INSERT INTO usage_stats_daily (day, account_id, token_id, model, calls, input_tokens, output_tokens, amount_micros)
           VALUES (date(@created_at / 1000, 'unixepoch'), @account_id, @token_id, @model, 1, @input_tokens, @output_tokens, @amount_micros)
           ON CONFLICT (day, token_id, model) DO UPDATE SET
             calls = calls + 1,
             input_tokens = input_tokens + excluded.input_tokens,
             output_tokens = output_tokens + excluded.output_tokens,
             amount_micros = amount_micros + excluded.amount_micros`,
        )
        .run(entry);
    });
  }

  /** Appends a record, adds its amount to the token's usage and to the day's totals, atomically. */
  record(entry: UsageRecord): void {
    this.recordAtomically(entry);
  }

  /**
   * Rolls up at most `limit` records created before `before` into `usage_daily` (one row per UTC day, token,
   * endpoint and model) and deletes them, in one transaction; returns how many records it rolled up. Tokens'
   * spent amounts (`tokens.used_micros`) are not touched: they already include every record.
   */
  rollUp(before: number, limit: number): number {
    return this.db.transaction(() => {
      const last = this.db
        .prepare('SELECT MAX(id) AS id, COUNT(*) AS n FROM (SELECT id FROM usage_records WHERE created_at < ? ORDER BY id LIMIT ?)')
        .get(before, limit) as { id: number | null; n: number };
      if (last.id === null) return 0;
      this.db
        .prepare(
          `INSERT INTO usage_daily (day, account_id, token_id, endpoint, model, calls, input_tokens, output_tokens, amount_micros)
           SELECT date(created_at / 1000, 'unixepoch'), account_id, token_id, endpoint, model,
                  COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(amount_micros)
             FROM usage_records WHERE id <= @last AND created_at < @before
            GROUP BY date(created_at / 1000, 'unixepoch'), account_id, token_id, endpoint, model
           ON CONFLICT (day, token_id, endpoint, model) DO UPDATE SET
             calls = calls + excluded.calls,
             input_tokens = input_tokens + excluded.input_tokens,
             output_tokens = output_tokens + excluded.output_tokens,
             amount_micros = amount_micros + excluded.amount_micros`,
        )
        .run({ last: last.id, before });
      this.db.prepare('DELETE FROM usage_records WHERE id <= ? AND created_at < ?').run(last.id, before);
      return last.n;
    })();
  }
}

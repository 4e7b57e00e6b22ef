// Migration 29: the dashboard's per-day totals in one table without rowid, a day's charges (bucket -1) beside its counted calls (one row per latency bucket), so a commit that charges and counts a call writes one page of totals, not one per table.
import type { Migration } from './index.ts';

export const statsDaily: Migration = {
  version: 29,
  name: 'stats-daily',
  sql: `
CREATE TABLE stats_daily (
  day            TEXT NOT NULL,
  token_id       TEXT NOT NULL,
  model          TEXT NOT NULL,
  bucket         INTEGER NOT NULL,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  calls          INTEGER NOT NULL,
  errors         INTEGER NOT NULL,
  billed         INTEGER NOT NULL,
  input_tokens   INTEGER NOT NULL,
  output_tokens  INTEGER NOT NULL,
  amount_micros  INTEGER NOT NULL,
  PRIMARY KEY (day, token_id, model, bucket)
) WITHOUT ROWID;
INSERT INTO stats_daily (day, token_id, model, bucket, account_id, calls, errors, billed, input_tokens, output_tokens, amount_micros)
SELECT day, token_id, model, bucket, account_id, calls, errors, 0, 0, 0, 0 FROM call_stats_daily;
INSERT INTO stats_daily (day, token_id, model, bucket, account_id, calls, errors, billed, input_tokens, output_tokens, amount_micros)
SELECT day, token_id, model, -1, account_id, 0, 0, calls, input_tokens, output_tokens, amount_micros FROM usage_stats_daily;
DROP TABLE call_stats_daily;
DROP TABLE usage_stats_daily;
`,
};

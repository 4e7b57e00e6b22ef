// Migration 16: per-day totals the usage dashboard reads (spend and tokens per token and model, kept at each charge; calls, errors and latency buckets per call).
import type { Migration } from './index.ts';

export const usageStats: Migration = {
  version: 16,
  name: 'usage-stats',
  sql: `
CREATE TABLE usage_stats_daily (
  day            TEXT NOT NULL,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  token_id       TEXT NOT NULL,
  model          TEXT NOT NULL,
  calls          INTEGER NOT NULL,
  input_tokens   INTEGER NOT NULL,
  output_tokens  INTEGER NOT NULL,
  amount_micros  INTEGER NOT NULL,
  PRIMARY KEY (day, token_id, model)
);
INSERT INTO usage_stats_daily (day, account_id, token_id, model, calls, input_tokens, output_tokens, amount_micros)
SELECT day, MIN(account_id), token_id, model, SUM(calls), SUM(input_tokens), SUM(output_tokens), SUM(amount_micros)
  FROM (SELECT day, account_id, token_id, model, calls, input_tokens, output_tokens, amount_micros FROM usage_daily
        UNION ALL
        SELECT date(created_at / 1000, 'unixepoch'), account_id, token_id, model, 1, input_tokens, output_tokens, amount_micros
          FROM usage_records)
 GROUP BY day, token_id, model;
CREATE INDEX usage_stats_daily_day ON usage_stats_daily(day);

CREATE TABLE call_stats_daily (
  day         TEXT NOT NULL,
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  token_id    TEXT NOT NULL,
  model       TEXT NOT NULL,
  bucket      INTEGER NOT NULL,
  calls       INTEGER NOT NULL,
  errors      INTEGER NOT NULL,
  PRIMARY KEY (day, token_id, model, bucket)
);
CREATE INDEX call_stats_daily_day ON call_stats_daily(day);
`,
};

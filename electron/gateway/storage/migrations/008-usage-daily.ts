// Migration 8: old usage records are rolled up into one row per UTC day, token, endpoint and model; an index to find old records.
import type { Migration } from './index.ts';

export const usageDaily: Migration = {
  version: 8,
  name: 'usage-daily',
  sql: `
CREATE TABLE usage_daily (
  day            TEXT NOT NULL,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  token_id       TEXT NOT NULL,
  endpoint       TEXT NOT NULL,
  model          TEXT NOT NULL,
  calls          INTEGER NOT NULL,
  input_tokens   INTEGER NOT NULL,
  output_tokens  INTEGER NOT NULL,
  amount_micros  INTEGER NOT NULL,
  PRIMARY KEY (day, token_id, endpoint, model)
);
CREATE INDEX usage_daily_account ON usage_daily(account_id, day);
CREATE INDEX usage_records_created ON usage_records(created_at);
`,
};

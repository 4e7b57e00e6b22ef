// Migration 2: the usage ledger, one row per billed call, charged to a token and its account.
import type { Migration } from './index.ts';

export const usage: Migration = {
  version: 2,
  name: 'usage',
  sql: `
CREATE TABLE usage_records (
  id             INTEGER PRIMARY KEY,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  token_id       TEXT NOT NULL,
  endpoint       TEXT NOT NULL,
  model          TEXT NOT NULL,
  input_tokens   INTEGER NOT NULL DEFAULT 0,
  output_tokens  INTEGER NOT NULL DEFAULT 0,
  amount_micros  INTEGER NOT NULL,
  created_at     INTEGER NOT NULL
);
CREATE INDEX usage_records_account ON usage_records(account_id, id);
CREATE INDEX usage_records_token ON usage_records(token_id, id);
`,
};

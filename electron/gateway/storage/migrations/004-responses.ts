// Migration 4: stored Responses API responses, per account, so `previous_response_id` and GET /v1/responses/{id} work.
import type { Migration } from './index.ts';

export const responses: Migration = {
  version: 4,
  name: 'responses',
  sql: `
CREATE TABLE stored_responses (
  id             INTEGER PRIMARY KEY,
  response_id    TEXT NOT NULL UNIQUE,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  context_json   TEXT NOT NULL,
  response_json  TEXT NOT NULL,
  created_at     INTEGER NOT NULL
);
CREATE INDEX stored_responses_account ON stored_responses(account_id, id);
`,
};

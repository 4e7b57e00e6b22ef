// Migration 13: which relay channel stored which response id (per account), so a retrieve, delete or follow-up goes back to it.
import type { Migration } from './index.ts';

export const relayedResponses: Migration = {
  version: 13,
  name: 'relayed-responses',
  sql: `
CREATE TABLE relayed_responses (
  account_id  INTEGER NOT NULL,
  response_id TEXT NOT NULL,
  channel_id  TEXT NOT NULL,
  model       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (account_id, response_id)
);
CREATE INDEX relayed_responses_by_age ON relayed_responses (created_at);
`,
};

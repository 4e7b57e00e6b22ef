// Migration 24: Conversations API conversations, per account: metadata and items, sized to bound what an account keeps.
import type { Migration } from './index.ts';

export const conversations: Migration = {
  version: 24,
  name: 'conversations',
  sql: `
CREATE TABLE conversations (
  id              INTEGER PRIMARY KEY,
  conversation_id TEXT NOT NULL UNIQUE,
  account_id      INTEGER NOT NULL REFERENCES accounts(id),
  metadata_json   TEXT NOT NULL,
  items_json      TEXT NOT NULL,
  bytes           INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX conversations_account ON conversations(account_id, updated_at);
CREATE INDEX conversations_by_age ON conversations(updated_at);
`,
};

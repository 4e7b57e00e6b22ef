// Migration 15: stored chat completions, uploaded files, batches and their line results (per account), and the input start and background timing of stored responses.
import type { Migration } from './index.ts';

export const openaiSurface: Migration = {
  version: 15,
  name: 'openai-surface',
  sql: `
CREATE TABLE stored_chat_completions (
  id              INTEGER PRIMARY KEY,
  completion_id   TEXT NOT NULL UNIQUE,
  account_id      INTEGER NOT NULL REFERENCES accounts(id),
  model           TEXT NOT NULL,
  metadata_json   TEXT NOT NULL,
  messages_json   TEXT NOT NULL,
  completion_json TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  bytes           INTEGER NOT NULL
);
CREATE INDEX stored_chat_completions_account ON stored_chat_completions(account_id, id);
CREATE INDEX stored_chat_completions_age ON stored_chat_completions(created_at);

ALTER TABLE stored_responses ADD COLUMN input_from INTEGER NOT NULL DEFAULT 0;
ALTER TABLE stored_responses ADD COLUMN ready_at INTEGER;
CREATE INDEX stored_responses_age ON stored_responses(created_at);

CREATE TABLE api_files (
  id          INTEGER PRIMARY KEY,
  file_id     TEXT NOT NULL UNIQUE,
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  filename    TEXT NOT NULL,
  purpose     TEXT NOT NULL,
  bytes       INTEGER NOT NULL,
  disk_name   TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
CREATE INDEX api_files_account ON api_files(account_id, id);
CREATE INDEX api_files_expiry ON api_files(expires_at);

CREATE TABLE batches (
  id          INTEGER PRIMARY KEY,
  batch_id    TEXT NOT NULL UNIQUE,
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  token_id    TEXT NOT NULL,
  status      TEXT NOT NULL,
  batch_json  TEXT NOT NULL,
  next_line   INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL
);
CREATE INDEX batches_account ON batches(account_id, id);
CREATE INDEX batches_status ON batches(status);

CREATE TABLE batch_results (
  batch_id    TEXT NOT NULL,
  line        INTEGER NOT NULL,
  ok          INTEGER NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY (batch_id, line)
);
`,
};

// Migration 3: 3D generation tasks, scoped by account; the state before completion is derived from the submit time.
import type { Migration } from './index.ts';

export const tasks3d: Migration = {
  version: 3,
  name: 'tasks3d',
  sql: `
CREATE TABLE tasks3d (
  id              INTEGER PRIMARY KEY,
  task_id         TEXT NOT NULL UNIQUE,
  account_id      INTEGER NOT NULL REFERENCES accounts(id),
  token_id        TEXT NOT NULL,
  model           TEXT NOT NULL,
  prompt          TEXT NOT NULL,
  image_url       TEXT,
  format          TEXT NOT NULL CHECK (format IN ('glb', 'obj', 'stl')),
  submitted_at    INTEGER NOT NULL,
  duration_ms     INTEGER NOT NULL,
  status          TEXT CHECK (status IS NULL OR status IN ('SUCCESS', 'FAILURE')),
  failure_reason  TEXT,
  finished_at     INTEGER,
  file_name       TEXT,
  input_tokens    INTEGER NOT NULL,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  amount_micros   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tasks3d_account ON tasks3d(account_id, id);
`,
};

// Migration 11: relay channels (the upstreams calls are relayed to) with their health; keys live in the secret store, only a hint here.
import type { Migration } from './index.ts';

export const channels: Migration = {
  version: 11,
  name: 'channels',
  sql: `
CREATE TABLE channels (
  id                   INTEGER PRIMARY KEY,
  channel_id           TEXT NOT NULL UNIQUE,
  name                 TEXT NOT NULL UNIQUE COLLATE NOCASE,
  kind                 TEXT NOT NULL CHECK (kind IN ('openai', 'anthropic', 'gemini')),
  base_url             TEXT NOT NULL,
  models               TEXT NOT NULL,
  priority             INTEGER NOT NULL DEFAULT 0,
  weight               INTEGER NOT NULL DEFAULT 1,
  timeout_ms           INTEGER NOT NULL DEFAULT 60000,
  headers              TEXT NOT NULL DEFAULT '{}',
  enabled              INTEGER NOT NULL DEFAULT 1,
  key_hint             TEXT,
  revision             INTEGER NOT NULL DEFAULT 1,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  cooldown_until       INTEGER,
  last_error           TEXT,
  last_error_at        INTEGER,
  last_latency_ms      INTEGER,
  last_ok_at           INTEGER
);
`,
};

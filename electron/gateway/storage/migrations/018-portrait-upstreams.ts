// Migration 18: the portrait library and 3D tasks against real upstreams: channel kinds platform and volcengine (with region and project), the reviewer each asset went to, refresh backoff, remote group ids, and the channel of a 3D task.
import type { Migration } from './index.ts';

export const portraitUpstreams: Migration = {
  version: 18,
  name: 'portrait-upstreams',
  sql: `
CREATE TABLE channels_widened (
  id                   INTEGER PRIMARY KEY,
  channel_id           TEXT NOT NULL UNIQUE,
  name                 TEXT NOT NULL UNIQUE COLLATE NOCASE,
  kind                 TEXT NOT NULL CHECK (kind IN ('openai', 'anthropic', 'gemini', 'platform', 'volcengine')),
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
  last_ok_at           INTEGER,
  region               TEXT,
  project              TEXT
);
INSERT INTO channels_widened (id, channel_id, name, kind, base_url, models, priority, weight, timeout_ms, headers, enabled, key_hint,
  revision, created_at, updated_at, consecutive_failures, cooldown_until, last_error, last_error_at, last_latency_ms, last_ok_at)
SELECT id, channel_id, name, kind, base_url, models, priority, weight, timeout_ms, headers, enabled, key_hint,
  revision, created_at, updated_at, consecutive_failures, cooldown_until, last_error, last_error_at, last_latency_ms, last_ok_at
FROM channels;
DROP TABLE channels;
ALTER TABLE channels_widened RENAME TO channels;

ALTER TABLE portrait_assets ADD COLUMN reviewer_channel_id TEXT;
ALTER TABLE portrait_assets ADD COLUMN reviewer_label TEXT NOT NULL DEFAULT 'simulated';
ALTER TABLE portrait_assets ADD COLUMN refresh_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE portrait_assets ADD COLUMN next_refresh_at INTEGER;

CREATE TABLE portrait_remote_groups (
  group_ref        INTEGER NOT NULL REFERENCES portrait_groups(id),
  channel_id       TEXT NOT NULL,
  remote_group_id  TEXT NOT NULL,
  PRIMARY KEY (group_ref, channel_id)
);

ALTER TABLE tasks3d ADD COLUMN channel_id TEXT;
`,
};

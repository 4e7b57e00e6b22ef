// Migration 18: the portrait library and 3D tasks against real upstreams: channel kinds platform and volcengine (with region and project), the reviewer each asset went to, refresh backoff, remote group ids, and the channel of a 3D task.
import type { Db } from '../database.ts';
import type { Migration } from './index.ts';

/** The kind check of the channels table, before and after. */
const RELAY_KINDS_CHECK = "kind IN ('openai', 'anthropic', 'gemini')";
const ALL_KINDS_CHECK = "kind IN ('openai', 'anthropic', 'gemini', 'platform', 'volcengine')";

/**
 * SQLite cannot change a CHECK in place: the channels table is rebuilt from its own current definition (so columns
 * that steps merged in another order added are kept, constraints and all) with the kind check widened.
 */
function widenChannelKinds(db: Db): string {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'channels'").get() as { sql: string } | undefined;
  if (!row || !row.sql.includes(RELAY_KINDS_CHECK)) return '';
  const definition = row.sql
    .replace(/^CREATE TABLE\s+"?channels"?/i, 'CREATE TABLE channels_widened')
    .replace(RELAY_KINDS_CHECK, ALL_KINDS_CHECK);
  return `${definition};
INSERT INTO channels_widened SELECT * FROM channels;
DROP TABLE channels;
ALTER TABLE channels_widened RENAME TO channels;
`;
}

export const portraitUpstreams: Migration = {
  version: 18,
  name: 'portrait-upstreams',
  schemaSql: widenChannelKinds,
  sql: `
ALTER TABLE channels ADD COLUMN region TEXT;
ALTER TABLE channels ADD COLUMN project TEXT;

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

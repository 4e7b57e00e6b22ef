// Migration 22: a channel's idle timeout between body chunks and its deadline for a whole upstream call (defaults as CHANNEL_DEFAULTS).
import type { Migration } from './index.ts';

export const channelReadLimits: Migration = {
  version: 22,
  name: 'channel-read-limits',
  sql: `
ALTER TABLE channels ADD COLUMN idle_timeout_ms INTEGER NOT NULL DEFAULT 300000;
ALTER TABLE channels ADD COLUMN deadline_ms INTEGER NOT NULL DEFAULT 1800000;
`,
};

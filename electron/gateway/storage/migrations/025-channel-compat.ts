// Migration 25: an `openai` channel's compatibility profile (`openai`, `compatible`; null chooses it from the base URL).
import type { Migration } from './index.ts';

export const channelCompat: Migration = {
  version: 25,
  name: 'channel-compat',
  sql: `
ALTER TABLE channels ADD COLUMN compat TEXT;
`,
};

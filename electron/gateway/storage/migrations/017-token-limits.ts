// Migration 17: a token may be limited to some models (a JSON array of names; NULL: any model) and remembers when it was last used (to the minute).
import type { Migration } from './index.ts';

export const tokenLimits: Migration = {
  version: 17,
  name: 'token-limits',
  sql: `
ALTER TABLE tokens ADD COLUMN models TEXT;
ALTER TABLE tokens ADD COLUMN last_used_at INTEGER;
`,
};

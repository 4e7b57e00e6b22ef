// Migration 17: a token may be limited to some models (a JSON array of names; NULL: any) and remembers its last use (to the minute); a journal entry keeps its token name, usage, cost and time to first output.
import type { Migration } from './index.ts';

export const consoleRecords: Migration = {
  version: 17,
  name: 'console-records',
  sql: `
ALTER TABLE tokens ADD COLUMN models TEXT;
ALTER TABLE tokens ADD COLUMN last_used_at INTEGER;
ALTER TABLE journal ADD COLUMN token TEXT;
ALTER TABLE journal ADD COLUMN input_tokens INTEGER;
ALTER TABLE journal ADD COLUMN output_tokens INTEGER;
ALTER TABLE journal ADD COLUMN amount_micros INTEGER;
ALTER TABLE journal ADD COLUMN first_output_ms INTEGER;
`,
};

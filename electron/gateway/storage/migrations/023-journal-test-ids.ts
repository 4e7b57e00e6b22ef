// Migration 23: each journal entry keeps its test id, request id, the source of its answer and the fixture that gave it, in columns the journal list filters and shows (no index: the journal holds at most 2,000 entries).
import type { Migration } from './index.ts';

export const journalTestIds: Migration = {
  version: 23,
  name: 'journal-test-ids',
  sql: `
ALTER TABLE journal ADD COLUMN test_id TEXT;
ALTER TABLE journal ADD COLUMN request_id TEXT;
ALTER TABLE journal ADD COLUMN source TEXT;
ALTER TABLE journal ADD COLUMN fixture TEXT;
`,
};

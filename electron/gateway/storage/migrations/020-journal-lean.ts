// Migration 20: the journal drops its four filter indexes. It holds at most `JOURNAL_LIMIT` entries, so a filtered page scans them in well under a millisecond, while every recorded call paid to update each index.
import type { Migration } from './index.ts';

export const journalLean: Migration = {
  version: 20,
  name: 'journal-lean',
  sql: `
DROP INDEX IF EXISTS journal_status;
DROP INDEX IF EXISTS journal_protocol;
DROP INDEX IF EXISTS journal_model;
DROP INDEX IF EXISTS journal_account;
`,
};

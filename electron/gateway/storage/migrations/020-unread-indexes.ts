// Migration 20: drops indexes every call paid to update but no query needs: the journal's four filter indexes (it keeps at most `JOURNAL_LIMIT` entries, scanned in a fraction of a millisecond) and the usage ledger's by account and by token (nothing reads the ledger so).
import type { Migration } from './index.ts';

export const unreadIndexes: Migration = {
  version: 20,
  name: 'unread-indexes',
  sql: `
DROP INDEX IF EXISTS journal_status;
DROP INDEX IF EXISTS journal_protocol;
DROP INDEX IF EXISTS journal_model;
DROP INDEX IF EXISTS journal_account;
DROP INDEX IF EXISTS usage_records_account;
DROP INDEX IF EXISTS usage_records_token;
`,
};

// Migration 28: the usage ledger's index by creation time goes: every charge paid to update it (one more page per commit), and the roll-up now finds old records by id, oldest first.
import type { Migration } from './index.ts';

export const ledgerById: Migration = {
  version: 28,
  name: 'ledger-by-id',
  sql: `DROP INDEX IF EXISTS usage_records_created;`,
};

// Migration 12: the journal keeps how a relayed call went (channel, upstream model, each try) beside its detail.
import type { Migration } from './index.ts';

export const journalRelay: Migration = {
  version: 12,
  name: 'journal-relay',
  sql: `ALTER TABLE journal ADD COLUMN relay_json TEXT;`,
};

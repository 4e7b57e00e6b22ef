// Migration 26: a journal entry answered from a recorded cassette keeps that cassette's file (the Logs page's "replayed from …").
import type { Migration } from './index.ts';

export const journalCassettes: Migration = {
  version: 26,
  name: 'journal-cassettes',
  sql: `
ALTER TABLE journal ADD COLUMN cassette TEXT;
`,
};

// Migration 27: the request journal leaves the product database for its own file (journal.sqlite), written by a thread of its own.
import type { Migration } from './index.ts';

/** The composition root copies the old entries into the journal's store before this step runs (see open-stores.ts). */
export const journalOut: Migration = {
  version: 27,
  name: 'journal-out',
  sql: `DROP TABLE IF EXISTS journal;`,
};

// Opens the data dir's product database, handing what an older file kept to the stores that now own it first: the simulated reviews to the simulator's store, the journal to its own.
import { adoptLegacyReviews } from './providers/simulate/legacy-reviews.ts';
import { refuseNewerSimulateStore } from './providers/simulate/store.ts';
import { openDatabase, type Db } from './storage/database.ts';
import { adoptLegacyJournal } from './storage/journal-legacy.ts';
import { refuseNewerJournalStore } from './storage/journal-store.ts';

/**
 * The product database of a data dir, migrated; the simulated reviews an older file kept move to simulate.sqlite and
 * its journal entries to journal.sqlite on the way. A data dir a newer Gatehouse wrote (any of the files) is refused
 * first, with no file changed.
 */
export function openProductDatabase(dataDir: string): Db {
  refuseNewerSimulateStore(dataDir);
  refuseNewerJournalStore(dataDir);
  return openDatabase(dataDir, {
    beforeMigrate: (db) => {
      adoptLegacyReviews(db, dataDir);
      adoptLegacyJournal(db, dataDir);
    },
  });
}

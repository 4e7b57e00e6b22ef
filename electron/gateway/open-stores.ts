// Opens the data dir's product database, handing the simulated reviews an older file kept over to the simulator's store first.
import { adoptLegacyReviews } from './providers/simulate/legacy-reviews.ts';
import { refuseNewerSimulateStore } from './providers/simulate/store.ts';
import { openDatabase, type Db } from './storage/database.ts';

/**
 * The product database of a data dir, migrated; the simulated reviews an older file kept move to simulate.sqlite on the
 * way. A data dir a newer Gatehouse wrote (either file) is refused first, with neither file changed.
 */
export function openProductDatabase(dataDir: string): Db {
  refuseNewerSimulateStore(dataDir);
  return openDatabase(dataDir, { beforeMigrate: (db) => adoptLegacyReviews(db, dataDir) });
}

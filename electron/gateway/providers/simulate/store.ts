// The simulator's own SQLite file in the data dir (simulate.sqlite): the simulated upstream's state, kept apart from the product database.
import path from 'node:path';
import { openSqliteFile, type Db } from '../../storage/database.ts';
import type { Migration } from '../../storage/migrations/index.ts';
import { refuseNewerFile } from '../../storage/schema-level.ts';

/** File name of the simulator's store inside the data dir. */
export const SIMULATE_FILE = 'simulate.sqlite';

/** The store's own numbered schema steps (recorded in its own `schema_migrations`). Never edit one; add a new number. */
const STEPS: readonly Migration[] = [
  {
    version: 1,
    name: 'sim-reviews',
    sql: `
CREATE TABLE sim_reviews (
  upstream_id   TEXT PRIMARY KEY,
  url           TEXT NOT NULL,
  asset_type    TEXT NOT NULL,
  submitted_at  INTEGER NOT NULL,
  checks        INTEGER NOT NULL DEFAULT 0
);
`,
  },
];

/** Opens (creating if needed) `<dataDir>/simulate.sqlite` with the product database's pragmas, durability and owner-only modes. */
export function openSimulateStore(dataDir: string): Db {
  return openSqliteFile(dataDir, SIMULATE_FILE, STEPS);
}

/**
 * Refuses a `<dataDir>/simulate.sqlite` a newer Gatehouse wrote, reading it only: run before the product database is
 * opened, so neither file is changed when one of them is refused.
 */
export function refuseNewerSimulateStore(dataDir: string): void {
  refuseNewerFile(path.join(dataDir, SIMULATE_FILE), STEPS);
}

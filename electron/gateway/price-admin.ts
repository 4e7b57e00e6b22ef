// The price table of a data dir without a running gateway: what the CLI's `price` command manages (also while a server runs on it).
import { openProductDatabase } from './open-stores.ts';
import { PriceTable } from './services/price-table.ts';
import { PricesRepo } from './storage/prices-repo.ts';
import { systemClock } from './time.ts';

/** The price table of the data dir's database, opened (and migrated) on the spot; call close() when done. */
export interface PriceAdmin {
  readonly prices: PriceTable;
  close(): void;
}

/** Opens the data dir's database for the price table. */
export function openPriceAdmin(dataDir: string): PriceAdmin {
  const db = openProductDatabase(dataDir);
  return { prices: new PriceTable(new PricesRepo(db), systemClock), close: () => db.close() };
}

// Upgrade step: the simulated reviews an older product database kept (table sim_reviews) are copied into the simulator's store.
import type { Db } from '../../storage/database.ts';
import type { SimReviewRow } from './reviews-repo.ts';
import { openSimulateStore } from './store.ts';

/**
 * Copies the rows of the product database's `sim_reviews` table, when it still has one, into `<dataDir>/simulate.sqlite`,
 * so an asset under review keeps its review timing (and a flaky URL its check count) across the upgrade. Runs before
 * the product migration that drops the table; rows already copied are kept as they are, so a repeat is harmless.
 */
export function adoptLegacyReviews(productDb: Db, dataDir: string): void {
  const table = productDb.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sim_reviews'").get();
  if (!table) return;
  const rows = productDb.prepare('SELECT upstream_id, url, asset_type, submitted_at, checks FROM sim_reviews').all() as SimReviewRow[];
  if (rows.length === 0) return;
  const store = openSimulateStore(dataDir);
  try {
    const insert = store.prepare(
      `INSERT OR IGNORE INTO sim_reviews (upstream_id, url, asset_type, submitted_at, checks)
       VALUES (@upstream_id, @url, @asset_type, @submitted_at, @checks)`,
    );
    store
      .transaction(() => {
        for (const row of rows) insert.run(row);
      })
      .immediate();
  } finally {
    store.close();
  }
}

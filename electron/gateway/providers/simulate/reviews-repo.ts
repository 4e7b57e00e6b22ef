// Repository of the simulated upstream reviewer's own state (in simulate.sqlite): what was submitted, when, and how often it was checked.
import type { Db } from '../../storage/database.ts';

/** One submission as the simulated upstream remembers it. */
export interface SimReviewRow {
  upstream_id: string;
  url: string;
  asset_type: string;
  submitted_at: number;
  checks: number;
}

export class SimReviewsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(row: Omit<SimReviewRow, 'checks'>): void {
    this.db
      .prepare(
        'INSERT INTO sim_reviews (upstream_id, url, asset_type, submitted_at) VALUES (@upstream_id, @url, @asset_type, @submitted_at)',
      )
      .run(row);
  }

  /** Counts one more status check and returns the row as it is after counting. */
  countCheck(upstreamId: string): SimReviewRow | undefined {
    return this.db.prepare('UPDATE sim_reviews SET checks = checks + 1 WHERE upstream_id = ? RETURNING *').get(upstreamId) as
      SimReviewRow | undefined;
  }
}

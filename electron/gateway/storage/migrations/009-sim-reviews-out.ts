// Migration 9: the simulated reviewer's state leaves the product database for the simulator's own file (simulate.sqlite).
import type { Migration } from './index.ts';

/** The composition root copies the old rows into the simulator's store before this step runs (see open-stores.ts). */
export const simReviewsOut: Migration = {
  version: 9,
  name: 'sim-reviews-out',
  sql: `DROP TABLE IF EXISTS sim_reviews;`,
};

// Migration 14: the owner's prices per model (the documented defaults stay in code; a row here overrides one or adds a model).
import type { Migration } from './index.ts';

export const prices: Migration = {
  version: 14,
  name: 'prices',
  sql: `
CREATE TABLE prices (
  model           TEXT PRIMARY KEY,
  input_per_mtok  REAL NOT NULL,
  output_per_mtok REAL NOT NULL,
  per_call        REAL NOT NULL DEFAULT 0,
  updated_at      INTEGER NOT NULL
);
`,
};

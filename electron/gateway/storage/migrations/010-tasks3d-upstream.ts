// Migration 10: a 3D task remembers the upstream's id for it (the provider is asked by that id); older tasks were the simulator's, which derives everything from the row, so their own id serves.
import type { Migration } from './index.ts';

export const tasks3dUpstream: Migration = {
  version: 10,
  name: 'tasks3d-upstream',
  sql: `
ALTER TABLE tasks3d ADD COLUMN upstream_id TEXT NOT NULL DEFAULT '';
UPDATE tasks3d SET upstream_id = task_id;
`,
};

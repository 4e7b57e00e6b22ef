// What the testing API's `POST /admin/api/reset {"data": true}` empties: every account's portrait library, 3D tasks, stored responses and chat completions, files and batches, in one transaction.
import { ASSETS_TABLE } from './assets-repo.ts';
import type { Db } from './database.ts';
import { noteWrite } from './read-cache.ts';

/** The tables emptied, by the name the reset's answer counts them under (children before the rows they name). */
const TABLES = {
  assets: ASSETS_TABLE,
  groups: 'portrait_groups',
  remote_groups: 'portrait_remote_groups',
  tasks3d: 'tasks3d',
  responses: 'stored_responses',
  relayed_responses: 'relayed_responses',
  chat_completions: 'stored_chat_completions',
  batch_results: 'batch_results',
  batches: 'batches',
  files: 'api_files',
} as const;

export type ClearedData = { -readonly [K in keyof typeof TABLES]: number };

/** Empties the tables in one transaction (accounts, tokens, channels, prices and usage stay); answers the rows removed from each. */
export function clearAccountData(db: Db): ClearedData {
  return db
    .transaction(() => {
      const cleared = {} as ClearedData;
      for (const [name, table] of Object.entries(TABLES) as [keyof ClearedData, string][]) {
        cleared[name] = db.prepare(`DELETE FROM ${table}`).run().changes;
        noteWrite(db, table);
      }
      return cleared;
    })
    .immediate();
}

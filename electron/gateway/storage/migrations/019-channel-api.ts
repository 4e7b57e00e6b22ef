// Migration 19: the chat API an `openai` channel's upstream speaks (`chat` or `responses`); other kinds have none.
import type { Migration } from './index.ts';

export const channelApi: Migration = {
  version: 19,
  name: 'channel-api',
  sql: `
ALTER TABLE channels ADD COLUMN api TEXT CHECK (api IN ('chat', 'responses'));
UPDATE channels SET api = 'chat' WHERE kind = 'openai';
`,
};

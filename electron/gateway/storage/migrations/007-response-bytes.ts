// Migration 7: each stored response records its size, so stored bytes per account can be bounded; an index to find expired responses.
import type { Migration } from './index.ts';

export const responseBytes: Migration = {
  version: 7,
  name: 'response-bytes',
  sql: `
ALTER TABLE stored_responses ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
UPDATE stored_responses SET bytes = length(CAST(context_json AS BLOB)) + length(CAST(response_json AS BLOB));
CREATE INDEX stored_responses_account_bytes ON stored_responses(account_id, id, bytes);
CREATE INDEX stored_responses_created ON stored_responses(created_at);
`,
};

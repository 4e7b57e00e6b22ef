// Migration 21: the journal keeps request and response bodies in columns of their own, so a call's body is stored as it is instead of escaped inside its detail JSON (entries written before keep theirs in the detail).
import type { Migration } from './index.ts';

export const journalTexts: Migration = {
  version: 21,
  name: 'journal-texts',
  sql: `
ALTER TABLE journal ADD COLUMN request_text TEXT;
ALTER TABLE journal ADD COLUMN response_text TEXT;
`,
};

// Migration 5: the request journal (what each API call sent and got, with stream timing), newest kept, oldest pruned.
import type { Migration } from './index.ts';

export const journal: Migration = {
  version: 5,
  name: 'journal',
  sql: `
CREATE TABLE journal (
  id           INTEGER PRIMARY KEY,
  at           INTEGER NOT NULL,
  method       TEXT NOT NULL,
  path         TEXT NOT NULL,
  protocol     TEXT NOT NULL,
  model        TEXT,
  account      TEXT,
  status       INTEGER NOT NULL,
  duration_ms  INTEGER NOT NULL,
  stream       INTEGER NOT NULL,
  error        TEXT,
  detail_json  TEXT NOT NULL
);
CREATE INDEX journal_status ON journal(status, id);
CREATE INDEX journal_protocol ON journal(protocol, id);
CREATE INDEX journal_model ON journal(model, id);
`,
};

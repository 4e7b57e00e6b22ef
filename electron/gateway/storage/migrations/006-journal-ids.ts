// Migration 6: journal ids are never reused (AUTOINCREMENT), so an id seen by a console stays that entry's even after the journal is cleared; an index for the account filter.
import type { Migration } from './index.ts';

export const journalIds: Migration = {
  version: 6,
  name: 'journal-ids',
  sql: `
CREATE TABLE journal_new (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
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
INSERT INTO journal_new (id, at, method, path, protocol, model, account, status, duration_ms, stream, error, detail_json)
  SELECT id, at, method, path, protocol, model, account, status, duration_ms, stream, error, detail_json FROM journal;
DROP TABLE journal;
ALTER TABLE journal_new RENAME TO journal;
CREATE INDEX journal_status ON journal(status, id);
CREATE INDEX journal_protocol ON journal(protocol, id);
CREATE INDEX journal_model ON journal(model, id);
CREATE INDEX journal_account ON journal(account, id);
`,
};

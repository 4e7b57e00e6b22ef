// Migration 1: accounts, tokens, portrait groups and assets, the simulated reviewer's state, and key/value meta.
import type { Migration } from './index.ts';

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE accounts (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL
);

CREATE TABLE tokens (
  id            INTEGER PRIMARY KEY,
  token_id      TEXT NOT NULL UNIQUE,
  account_id    INTEGER NOT NULL REFERENCES accounts(id),
  name          TEXT NOT NULL,
  token_hash    TEXT NOT NULL UNIQUE,
  token_hint    TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER,
  revoked_at    INTEGER,
  quota_micros  INTEGER,
  used_micros   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tokens_account ON tokens(account_id);

CREATE TABLE portrait_groups (
  id           INTEGER PRIMARY KEY,
  group_id     TEXT NOT NULL UNIQUE,
  account_id   INTEGER NOT NULL REFERENCES accounts(id),
  name         TEXT NOT NULL,
  description  TEXT NOT NULL DEFAULT '',
  group_type   TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX portrait_groups_account ON portrait_groups(account_id, id);

CREATE TABLE portrait_assets (
  id              INTEGER PRIMARY KEY,
  asset_id        TEXT NOT NULL UNIQUE,
  account_id      INTEGER NOT NULL REFERENCES accounts(id),
  group_ref       INTEGER NOT NULL REFERENCES portrait_groups(id),
  url             TEXT NOT NULL,
  asset_type      TEXT NOT NULL CHECK (asset_type IN ('Image', 'Video', 'Audio')),
  name            TEXT NOT NULL DEFAULT '',
  status          TEXT NOT NULL CHECK (status IN ('Submitted', 'Processing', 'Active', 'Failed')),
  upstream_id     TEXT NOT NULL,
  resolved_url    TEXT,
  refresh_error   TEXT,
  failure_reason  TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX portrait_assets_account ON portrait_assets(account_id, id);
CREATE INDEX portrait_assets_account_group ON portrait_assets(account_id, group_ref, id);
CREATE INDEX portrait_assets_account_status ON portrait_assets(account_id, status, id);
CREATE INDEX portrait_assets_pending ON portrait_assets(id) WHERE status IN ('Submitted', 'Processing');

CREATE TABLE sim_reviews (
  upstream_id   TEXT PRIMARY KEY,
  url           TEXT NOT NULL,
  asset_type    TEXT NOT NULL,
  submitted_at  INTEGER NOT NULL,
  checks        INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE meta (
  key    TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);
`,
};

// Unit tests of schema migration: each step runs once, also when a lower number arrives after a higher one.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DATABASE_FILE, openDatabase } from '../../electron/gateway/storage/database.ts';
import { openProductDatabase } from '../../electron/gateway/open-stores.ts';
import { JournalRepo } from '../../electron/gateway/storage/journal-repo.ts';
import { journalRowsOf } from '../../electron/gateway/storage/journal-row.ts';
import { openJournalStore } from '../../electron/gateway/storage/journal-store.ts';
import { migrations } from '../../electron/gateway/storage/migrations/index.ts';
import { tempDataDir } from '../helpers/gateway.ts';
import { journalRecord, keptBody } from '../helpers/journal.ts';

test('opening twice applies every migration exactly once and records each', () => {
  const dir = tempDataDir();
  try {
    openDatabase(dir).close();
    const db = openDatabase(dir);
    const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    assert.deepEqual(
      applied.map((row) => row.version),
      migrations.map((m) => m.version),
    );
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A database file as an older release left it: migrations up to `version` applied, `seed` run, and its level in user_version only. */
function databaseAtVersion(dir: string, version: number, seed: string): void {
  const old = new Database(path.join(dir, DATABASE_FILE));
  for (const migration of migrations.filter((m) => m.version <= version)) old.exec(migration.sql);
  old.exec(seed);
  old.pragma(`user_version = ${version}`);
  old.close();
}

test('a file from before schema_migrations (user_version 2) adopts its level and gets only the newer steps', () => {
  const dir = tempDataDir();
  try {
    databaseAtVersion(dir, 2, "INSERT INTO accounts (name, created_at) VALUES ('kept', 1)");
    const db = openDatabase(dir);
    assert.equal((db.prepare('SELECT name FROM accounts').get() as { name: string }).name, 'kept');
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n, migrations.length);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Opens the product database of `dir` as the gateway does (its journal moved out on the way), then the journal's own store. */
function upgradedJournal(dir: string): Database.Database {
  const product = openProductDatabase(dir);
  const table = product.prepare("SELECT name FROM sqlite_master WHERE name = 'journal'").get();
  product.close();
  assert.equal(table, undefined, "migration 27 dropped the product database's journal");
  return openJournalStore(dir);
}

test('journal entries recorded before migration 6 move to journal.sqlite with their ids, and ids are not reused after the table empties', () => {
  const dir = tempDataDir();
  try {
    databaseAtVersion(
      dir,
      5,
      "INSERT INTO journal (id, at, method, path, protocol, status, duration_ms, stream, detail_json) VALUES (41, 1, 'GET', '/v1/models', 'openai', 200, 1, 0, '{}')",
    );
    const db = upgradedJournal(dir);
    assert.deepEqual(db.prepare('SELECT id, path FROM journal').all(), [{ id: 41, path: '/v1/models' }]);
    db.prepare('DELETE FROM journal').run();
    const insert = db.prepare(
      "INSERT INTO journal (at, method, path, protocol, status, duration_ms, stream, detail_json) VALUES (2, 'GET', '/v1/models', 'openai', 200, 1, 0, '{}')",
    );
    assert.equal(Number(insert.run().lastInsertRowid), 42);
    // Migration 20 dropped the filter indexes (the journal is small and every call paid to update them); its own file has none.
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal' ORDER BY name").all();
    assert.deepEqual(indexes, []);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stored responses and usage records from before migrations 7 and 8 are kept; each response gets its size in bytes', () => {
  const dir = tempDataDir();
  try {
    databaseAtVersion(
      dir,
      6,
      `INSERT INTO accounts (id, name, created_at) VALUES (1, 'kept', 1);
       INSERT INTO stored_responses (response_id, account_id, context_json, response_json, created_at) VALUES ('resp_old', 1, '["é"]', '{"id":"resp_old"}', 5);
       INSERT INTO usage_records (account_id, token_id, endpoint, model, amount_micros, created_at) VALUES (1, 'tok_a', '/v1/responses', 'm', 7, 5);`,
    );
    const db = openDatabase(dir);
    assert.deepEqual(db.prepare('SELECT response_id, bytes FROM stored_responses').all(), [{ response_id: 'resp_old', bytes: 6 + 17 }]);
    assert.deepEqual(db.prepare('SELECT token_id, amount_micros FROM usage_records').all(), [{ token_id: 'tok_a', amount_micros: 7 }]);
    // Migration 20 kept only the index by creation time, and migration 28 dropped it (the roll-up reads the ledger by id).
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_records' ORDER BY name").all();
    assert.deepEqual(indexes, []);
    assert.deepEqual(db.prepare('SELECT COUNT(*) AS n FROM usage_daily').get(), { n: 0 });
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('3D tasks from before migration 10 get their own id as the upstream id (the simulator derives everything from the row)', () => {
  const dir = tempDataDir();
  try {
    databaseAtVersion(
      dir,
      8,
      `INSERT INTO accounts (id, name, created_at) VALUES (1, 'kept', 1);
       INSERT INTO tasks3d (task_id, account_id, token_id, model, prompt, format, submitted_at, duration_ms, input_tokens)
         VALUES ('task_old', 1, 'tok_a', 'sim-3d', 'a teapot', 'glb', 5, 1000, 3);`,
    );
    const db = openDatabase(dir);
    assert.deepEqual(db.prepare('SELECT task_id, upstream_id, status FROM tasks3d').all(), [
      { task_id: 'task_old', upstream_id: 'task_old', status: null },
    ]);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('journal entries from before migration 21 keep their bodies in their detail (moved to journal.sqlite); newer ones keep them in columns of their own, unescaped', () => {
  const dir = tempDataDir();
  try {
    const oldDetail = journalRecord({}, { request: keptBody('{"q":"old hay"}'), response: keptBody('{"a":"b"}') }).detail;
    databaseAtVersion(
      dir,
      20,
      `INSERT INTO journal (id, at, method, path, protocol, status, duration_ms, stream, detail_json, token)
         VALUES (7, 1, 'POST', '/v1/embeddings', 'openai', 200, 1, 0, '${JSON.stringify(oldDetail)}', 'default')`,
    );
    const db = upgradedJournal(dir);
    const repo = new JournalRepo(db);
    assert.deepEqual(repo.get(7)?.request.text, '{"q":"old hay"}');
    assert.deepEqual(repo.get(7)?.response.text, '{"a":"b"}');
    const [added] = repo.insertMany(
      journalRowsOf([journalRecord({ at: 2 }, { request: keptBody('{"q":"new \\"hay\\""}'), response: keptBody('{"a":"b"}') })]),
      100,
    );
    const row = db.prepare('SELECT detail_json, request_text, response_text FROM journal WHERE id = ?').get(added!) as Record<
      string,
      string
    >;
    assert.equal(row.request_text, '{"q":"new \\"hay\\""}', 'stored as received');
    assert.equal(row.response_text, '{"a":"b"}');
    assert.doesNotMatch(row.detail_json!, /hay/, 'the detail no longer carries the body');
    assert.equal(repo.get(added!)?.request.text, '{"q":"new \\"hay\\""}');
    assert.deepEqual(
      repo.list({ q: 'HAY' }, 1, 10).items.map((item) => item.id),
      [added!, 7],
      'the body search finds old and new entries alike',
    );
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a journal cleared before the upgrade hands its id counter to journal.sqlite: ids a console saw are never given again', () => {
  const dir = tempDataDir();
  try {
    databaseAtVersion(
      dir,
      26,
      `INSERT INTO journal (id, at, method, path, protocol, status, duration_ms, stream, detail_json) VALUES (50, 1, 'GET', '/v1/models', 'openai', 200, 1, 0, '{}');
       DELETE FROM journal;`,
    );
    const db = upgradedJournal(dir);
    const [added] = new JournalRepo(db).insertMany(journalRowsOf([journalRecord({ at: 2 })]), 100);
    assert.equal(added, 51);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

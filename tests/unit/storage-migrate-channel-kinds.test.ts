// Unit tests of migration 18: the channels table takes the platform and volcengine kinds and keeps every row and column, also one a later-numbered step added first.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DATABASE_FILE, migrate } from '../../electron/gateway/storage/database.ts';
import { migrations } from '../../electron/gateway/storage/migrations/index.ts';
import { tempDataDir } from '../helpers/gateway.ts';

test("channels keep their rows, a column another step added before it, and that column's check; new kinds are accepted", () => {
  const dir = tempDataDir();
  const db = new Database(path.join(dir, DATABASE_FILE));
  try {
    const before = migrations.filter((step) => step.version < 18);
    migrate(db, before);
    // A step numbered above 18 that ran first (work merged in another order) added a checked column.
    db.exec("ALTER TABLE channels ADD COLUMN later TEXT CHECK (later IN ('x', 'y'))");
    db.exec(
      `INSERT INTO channels (channel_id, name, kind, base_url, models, key_hint, created_at, updated_at, later)
       VALUES ('ch_1', 'old', 'openai', 'https://api.example.com/v1', '*', 'sk-…abcd', 1, 2, 'x')`,
    );
    assert.throws(() =>
      db.exec(
        `INSERT INTO channels (channel_id, name, kind, base_url, models, created_at, updated_at) VALUES ('ch_2', 'p', 'platform', 'u', '*', 1, 1)`,
      ),
    );
    migrate(db);
    const row = db.prepare('SELECT channel_id, name, kind, key_hint, later, region, project FROM channels').get();
    assert.deepEqual(
      { ...(row as object) },
      {
        channel_id: 'ch_1',
        name: 'old',
        kind: 'openai',
        key_hint: 'sk-…abcd',
        later: 'x',
        region: null,
        project: null,
      },
    );
    db.exec(
      `INSERT INTO channels (channel_id, name, kind, base_url, models, created_at, updated_at) VALUES ('ch_2', 'p', 'platform', 'u', '*', 1, 1)`,
    );
    db.exec(
      `INSERT INTO channels (channel_id, name, kind, base_url, models, created_at, updated_at) VALUES ('ch_3', 'v', 'volcengine', 'u', '*', 1, 1)`,
    );
    assert.throws(() => db.exec("UPDATE channels SET later = 'z' WHERE channel_id = 'ch_1'"), /CHECK/);
    assert.throws(() => db.exec("UPDATE channels SET kind = 'other' WHERE channel_id = 'ch_1'"), /CHECK/);
    assert.throws(
      () =>
        db.exec(
          "INSERT INTO channels (channel_id, name, kind, base_url, models, created_at, updated_at) VALUES ('ch_4', 'OLD', 'openai', 'u', '*', 1, 1)",
        ),
      /UNIQUE/,
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

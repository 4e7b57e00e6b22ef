// Unit test of migration 16: the dashboard's per-day totals start from the usage already billed (rolled-up days and raw records alike).
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DATABASE_FILE, openDatabase } from '../../electron/gateway/storage/database.ts';
import { migrations } from '../../electron/gateway/storage/migrations/index.ts';
import { CHARGES_BUCKET } from '../../electron/gateway/storage/usage-stats-repo.ts';
import { tempDataDir } from '../helpers/gateway.ts';

test('an older file gets usage_stats_daily filled from usage_daily and usage_records, one row per day, token and model (in stats_daily since migration 29)', () => {
  const dir = tempDataDir();
  try {
    const old = new Database(path.join(dir, DATABASE_FILE));
    const before = migrations.filter((m) => m.version < 16);
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const migration of before) {
      old.exec(migration.sql);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(migration.version, migration.name);
    }
    old.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'local', 0);
      INSERT INTO usage_daily VALUES ('2026-01-01', 1, 'tok', '/v1/chat/completions', 'sim-chat', 3, 30, 60, 300);
      INSERT INTO usage_daily VALUES ('2026-01-01', 1, 'tok', '/v1/completions', 'sim-chat', 1, 10, 20, 100);
      INSERT INTO usage_records (account_id, token_id, endpoint, model, input_tokens, output_tokens, amount_micros, created_at)
        VALUES (1, 'tok', '/v1/chat/completions', 'sim-chat', 5, 7, 11, ${Date.parse('2026-01-01T12:00:00Z')}),
               (1, 'tok', '/v1/chat/completions', 'sim-chat', 2, 2, 4, ${Date.parse('2026-01-02T00:00:01Z')});
    `);
    old.close();
    const db = openDatabase(dir);
    assert.deepEqual(
      db
        .prepare(
          `SELECT day, token_id, model, billed AS calls, input_tokens, output_tokens, amount_micros FROM stats_daily WHERE bucket = ${CHARGES_BUCKET} ORDER BY day`,
        )
        .all(),
      [
        { day: '2026-01-01', token_id: 'tok', model: 'sim-chat', calls: 5, input_tokens: 45, output_tokens: 87, amount_micros: 411 },
        { day: '2026-01-02', token_id: 'tok', model: 'sim-chat', calls: 1, input_tokens: 2, output_tokens: 2, amount_micros: 4 },
      ],
    );
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

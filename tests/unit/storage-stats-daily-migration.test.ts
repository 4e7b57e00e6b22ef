// Unit test of migration 29: an older file's per-day totals (charges and counted calls, kept in two tables) read the same from the one table, and new charges and calls add to them.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DATABASE_FILE, openDatabase } from '../../electron/gateway/storage/database.ts';
import { migrations } from '../../electron/gateway/storage/migrations/index.ts';
import { UsageRepo } from '../../electron/gateway/storage/usage-repo.ts';
import { UsageStatsRepo } from '../../electron/gateway/storage/usage-stats-repo.ts';
import { tempDataDir } from '../helpers/gateway.ts';

test("an older file's day totals and latency buckets read the same after migration 29, and new charges and calls add to them", () => {
  const dir = tempDataDir();
  try {
    const old = new Database(path.join(dir, DATABASE_FILE));
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const migration of migrations.filter((m) => m.version < 29)) {
      if (migration.schemaSql) old.exec(migration.schemaSql(old));
      old.exec(migration.sql);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(migration.version, migration.name);
    }
    old.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'local', 0);
      INSERT INTO call_stats_daily VALUES ('2026-01-01', 1, 'tok', 'sim-chat', 0, 3, 1), ('2026-01-01', 1, 'tok', 'sim-chat', 2, 2, 0),
                                          ('2026-01-02', 1, 'tok', 'other', 1, 1, 1);
      INSERT INTO usage_stats_daily VALUES ('2026-01-01', 1, 'tok', 'sim-chat', 4, 40, 80, 400), ('2026-01-02', 1, 'tok', 'other', 1, 5, 6, 7);
    `);
    old.close();
    const db = openDatabase(dir);
    try {
      const stats = new UsageStatsRepo(db);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%stats_daily' ORDER BY name").all();
      assert.deepEqual(tables, [{ name: 'stats_daily' }]);
      const day = (key: string, calls: number, errors: number, billed: number, input: number, output: number, amount: number) => ({
        key,
        label: key,
        calls,
        errors,
        billed,
        input_tokens: input,
        output_tokens: output,
        amount_micros: amount,
      });
      assert.deepEqual(stats.totals('day', '2026-01-01', 10), [
        day('2026-01-01', 5, 1, 4, 40, 80, 400),
        day('2026-01-02', 1, 1, 1, 5, 6, 7),
      ]);
      assert.deepEqual(stats.buckets('2026-01-01'), [
        { bucket: 0, calls: 3 },
        { bucket: 1, calls: 1 },
        { bucket: 2, calls: 2 },
      ]);

      new UsageRepo(db).record({
        account_id: 1,
        token_id: 'tok',
        endpoint: '/v1/chat/completions',
        model: 'sim-chat',
        input_tokens: 1,
        output_tokens: 2,
        amount_micros: 3,
        created_at: Date.parse('2026-01-01T10:00:00Z'),
      });
      stats.countCall({ day: '2026-01-01', account_id: 1, token_id: 'tok', model: 'sim-chat', bucket: 2, error: true });
      assert.deepEqual(stats.totals('model', '2026-01-01', 10)[0], day('sim-chat', 6, 2, 5, 41, 82, 403));
      assert.deepEqual(stats.buckets('2026-01-01')[2], { bucket: 2, calls: 3 });
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

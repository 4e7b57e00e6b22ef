// Unit tests of the dashboard's call counts: the calls of one commit, in whatever order, are counted in their day, token, model and latency bucket, errors apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageStatsRepo, type CountedCall } from '../../../electron/gateway/storage/usage-stats-repo.ts';
import { seedTokens, tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
const account = seedTokens(db, 'local', ['tok_a', 'tok_b']);

/** Call `index` of a commit: two days, two tokens, two models, three buckets, every fifth an error. */
function callOf(index: number): CountedCall {
  return {
    day: index % 4 === 0 ? '2026-11-25' : '2026-11-26',
    account_id: account.id,
    token_id: index % 2 === 0 ? 'tok_a' : 'tok_b',
    model: index % 3 === 0 ? 'model-x' : 'model-y',
    bucket: index % 5 === 0 ? 2 : index % 7 === 0 ? 3 : 1,
    error: index % 5 === 0,
  };
}

test('the calls of one commit, mixed or in runs, are counted in their day, token, model and bucket, errors apart', () => {
  const repo = new UsageStatsRepo(db);
  const keyOf = (call: CountedCall) => `${call.day} ${call.token_id} ${call.model} ${call.bucket}`;
  const mixed = Array.from({ length: 60 }, (_, index) => callOf(index));
  const runs = [...mixed].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const expected = new Map<string, { calls: number; errors: number }>();
  for (const call of mixed) {
    const counted = expected.get(keyOf(call)) ?? { calls: 0, errors: 0 };
    counted.calls += 1;
    counted.errors += call.error ? 1 : 0;
    expected.set(keyOf(call), counted);
  }
  for (const [order, calls] of Object.entries({ mixed, runs })) {
    db.exec('DELETE FROM stats_daily');
    repo.countCalls(calls);
    const rows = db.prepare('SELECT day, token_id, model, bucket, calls, errors FROM stats_daily').all() as (CountedCall & {
      calls: number;
      errors: number;
    })[];
    const stored = new Map(rows.map((row) => [keyOf(row), { calls: row.calls, errors: row.errors }]));
    assert.deepEqual(stored, expected, order);
  }
});

// Unit tests of the usage ledger's writes: the records of one commit, however many and in whatever order, are stored whole and in order, and each token's spent amount and the day totals agree with them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RECORDS_PER_INSERT, UsageRepo, type UsageRecord } from '../../../electron/gateway/storage/usage-repo.ts';
import { seedTokens, tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
const account = seedTokens(db, 'local', ['tok_a', 'tok_b']);
const DAY = 86_400_000;

/** Record `index` of a commit: two tokens, two models, two days, every figure its own. */
function recordOf(index: number): UsageRecord {
  return {
    account_id: account.id,
    token_id: index % 2 === 0 ? 'tok_a' : 'tok_b',
    endpoint: index % 3 === 0 ? '/v1/messages' : '/v1/chat/completions',
    model: index % 5 === 0 ? 'model-x' : 'model-y',
    input_tokens: 10 + index,
    output_tokens: 1000 + index,
    amount_micros: 7 * index + 1,
    created_at: (index % 4 === 0 ? 40 * DAY : 41 * DAY) + index,
  };
}

test('a commit of more records than one INSERT takes stores each of them, in order, with the same totals as one by one', () => {
  const repo = new UsageRepo(db);
  const byGroup = (entry: UsageRecord) => `${entry.token_id} ${entry.model} ${Math.floor(entry.created_at / DAY)}`;
  for (const count of [1, RECORDS_PER_INSERT, 2 * RECORDS_PER_INSERT + 5]) {
    const mixed = Array.from({ length: count }, (_, index) => recordOf(index));
    // The same records in runs of one day, token and model, as a commit's records mostly come.
    const runs = [...mixed].sort((a, b) => byGroup(a).localeCompare(byGroup(b)));
    for (const [order, entries] of Object.entries({ mixed, runs })) {
      const what = `${count} records, ${order}`;
      db.exec('DELETE FROM usage_records; DELETE FROM usage_stats_daily; UPDATE tokens SET used_micros = 0');
      repo.recordAll(entries);
      const stored = db
        .prepare(
          'SELECT account_id, token_id, endpoint, model, input_tokens, output_tokens, amount_micros, created_at FROM usage_records ORDER BY id',
        )
        .all();
      assert.deepEqual(stored, entries, what);
      const spent = db.prepare('SELECT token_id, used_micros FROM tokens ORDER BY token_id').all();
      const expected = ['tok_a', 'tok_b'].map((tokenId) => ({
        token_id: tokenId,
        used_micros: entries.filter((entry) => entry.token_id === tokenId).reduce((sum, entry) => sum + entry.amount_micros, 0),
      }));
      assert.deepEqual(spent, expected, `${what}: each token's spent amount`);
      const days = db
        .prepare(
          `SELECT token_id, model, day, calls, input_tokens, output_tokens, amount_micros FROM usage_stats_daily ORDER BY token_id, model, day`,
        )
        .all();
      const ledger = db
        .prepare(
          `SELECT token_id, model, date(created_at / 1000, 'unixepoch') AS day, COUNT(*) AS calls, SUM(input_tokens) AS input_tokens,
                  SUM(output_tokens) AS output_tokens, SUM(amount_micros) AS amount_micros
             FROM usage_records GROUP BY token_id, model, day ORDER BY token_id, model, day`,
        )
        .all();
      assert.deepEqual(days, ledger, `${what}: the day totals of each day, token and model`);
    }
  }
});

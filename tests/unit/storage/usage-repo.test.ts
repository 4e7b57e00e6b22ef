// Unit tests of the usage ledger's writes: the records of one commit, however many and in whatever order, are stored whole and in order, and each token's spent amount and the day totals agree with them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RECORDS_PER_INSERT, UsageRepo, type UsageRecord } from '../../../electron/gateway/storage/usage-repo.ts';
import { CHARGES_BUCKET } from '../../../electron/gateway/storage/usage-stats-repo.ts';
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
    // Every record of one account, token, endpoint and model (the usual commit): each its own figures and time.
    const oneCall = mixed.map((entry) => ({ ...entry, token_id: 'tok_a', endpoint: '/v1/chat/completions', model: 'model-y' }));
    for (const [order, entries] of Object.entries({ mixed, runs, oneCall })) {
      const what = `${count} records, ${order}`;
      db.exec('DELETE FROM usage_records; DELETE FROM stats_daily; UPDATE tokens SET used_micros = 0');
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
          `SELECT token_id, model, day, billed AS calls, input_tokens, output_tokens, amount_micros FROM stats_daily WHERE bucket = ${CHARGES_BUCKET} ORDER BY token_id, model, day`,
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

test('the roll-up takes the old records among the oldest by id, and one dated ahead of the clock at once; a charge updates no index of the ledger', () => {
  const repo = new UsageRepo(db);
  db.exec('DELETE FROM usage_records; DELETE FROM usage_daily');
  const at = (created_at: number, token_id = 'tok_a'): UsageRecord => ({ ...recordOf(0), token_id, created_at });
  const now = 200 * DAY;
  const before = now - 90 * DAY;
  const ahead = now + DAY;
  // Written in this order: two old records, a young one, one written while the clock was set a year ahead, an old one
  // written after the clock was set back, and a young one.
  repo.recordAll([at(before - 5), at(before - 4), at(now - 1), at(now + 365 * DAY, 'tok_b'), at(before - 3), at(now)]);
  const left = () =>
    (db.prepare('SELECT created_at FROM usage_records ORDER BY id').all() as { created_at: number }[]).map((row) => row.created_at);
  assert.equal(repo.rollUp(before, 2, ahead), 2, 'a step takes at most its limit, the oldest first');
  assert.deepEqual(left(), [now - 1, now + 365 * DAY, before - 3, now]);
  assert.equal(repo.rollUp(before, 3, ahead), 2, 'a young record in the way holds back none behind it within the limit');
  assert.deepEqual(left(), [now - 1, now]);
  assert.equal(repo.rollUp(before, 1000, ahead), 0);
  const days = db.prepare('SELECT token_id, day, calls FROM usage_daily ORDER BY day').all();
  assert.deepEqual(days, [
    { token_id: 'tok_a', day: '1970-04-20', calls: 3 },
    { token_id: 'tok_b', day: '1971-07-20', calls: 1 },
  ]);
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_records'").all();
  assert.deepEqual(indexes, [], 'records are found by id: the commit of a charge writes no index page');
});

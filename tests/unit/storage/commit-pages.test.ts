// Unit test of what one group commit writes to the WAL: calls charged and counted in it write one page each of the ledger, their token and their day's totals, not a page per table of totals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { UsageRepo, type UsageRecord } from '../../../electron/gateway/storage/usage-repo.ts';
import { UsageStatsRepo, type CountedCall } from '../../../electron/gateway/storage/usage-stats-repo.ts';
import { seedTokens, tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
const account = seedTokens(db, 'local', ['tok_a']);
const usage = new UsageRepo(db);
const stats = new UsageStatsRepo(db);
const writes = new GroupCommit(db, (error) => assert.fail(String(error)));
const at = Date.parse('2026-11-27T03:00:00Z');

const recordOf = (index: number): UsageRecord => ({
  account_id: account.id,
  token_id: 'tok_a',
  endpoint: '/v1/chat/completions',
  model: 'sim-chat',
  input_tokens: 10 + index,
  output_tokens: 20 + index,
  amount_micros: 30 + index,
  created_at: at + index,
});
const callOf = (bucket: number): CountedCall => ({
  day: '2026-11-27',
  account_id: account.id,
  token_id: 'tok_a',
  model: 'sim-chat',
  bucket,
  error: false,
});

/** The WAL frames (pages written) of one group commit of `records` charged and `calls` counted, the WAL emptied before it. */
async function framesOf(records: UsageRecord[], calls: CountedCall[]): Promise<number> {
  db.pragma('wal_checkpoint(TRUNCATE)');
  await writes.commit(() => {
    usage.recordAll(records);
    stats.countCalls(calls);
  });
  const [checkpoint] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  return checkpoint!.log;
}

test("a commit charging and counting calls of a day, token and model already counted writes three pages: the ledger's, the token's and the day's totals", async () => {
  // The first calls of the day make its rows.
  await framesOf([recordOf(0)], [callOf(1), callOf(2)]);
  assert.equal(await framesOf([recordOf(1)], [callOf(1)]), 3, 'one call');
  assert.equal(await framesOf([recordOf(2), recordOf(3), recordOf(4)], [callOf(1), callOf(2), callOf(1)]), 3, 'three calls, two buckets');
  assert.equal(await framesOf([recordOf(5)], []), 3, 'a charge alone');
});

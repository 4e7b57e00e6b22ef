// Unit test of the statements one group commit runs for a charged and counted call: one per row it writes, in one transaction, no savepoint, nothing for a token charged nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { BillingService } from '../../../electron/gateway/services/billing.ts';
import { UsageStatsService } from '../../../electron/gateway/services/usage-stats.ts';
import { GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { UsageRepo } from '../../../electron/gateway/storage/usage-repo.ts';
import { UsageStatsRepo } from '../../../electron/gateway/storage/usage-stats-repo.ts';
import { seedTokens, tempDatabase } from '../../helpers/database.ts';

// Every statement's `run` is seen (the connection's write guard keeps the method it finds as it compiles a statement, so
// the hook goes on the prototype before the database is opened).
const prototype = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as { run: (...params: unknown[]) => unknown };
const run = prototype.run;
let ran: string[] | undefined;
prototype.run = function (this: Database.Statement, ...params: unknown[]): unknown {
  ran?.push(this.source.trim().split(/\s+/).slice(0, 3).join(' '));
  return run.apply(this, params);
};

const db = tempDatabase();
const account = seedTokens(db, 'local', ['tok_a']);
const writes = new GroupCommit(db, (error) => assert.fail(String(error)));
const clock = { now: () => Date.parse('2026-11-27T05:00:00Z') };
const billing = new BillingService(
  new UsageRepo(db),
  clock,
  {},
  {
    limits: { usageRawMaxAgeMs: 365 * 86_400_000, pruneBatch: 100, usageRollupEveryMs: 3_600_000 },
    onError: (error) => assert.fail(String(error)),
    writes,
  },
);
const stats = new UsageStatsService(new UsageStatsRepo(db), clock, writes);
const principal = { accountId: account.id, accountName: 'local', tokenId: 'tok_a' };

/** The statements of one group commit of a relayed call charged `amountMicros` and counted. */
function statementsOf(amountMicros: number): string[] {
  billing.chargeAnswered(principal, { endpoint: '/v1/chat/completions', model: 'm', inputTokens: 10, outputTokens: 20, amountMicros });
  stats.count({ at: clock.now(), accountId: account.id, tokenId: 'tok_a', model: 'm', status: 200, durationMs: 5 });
  ran = [];
  try {
    writes.flush();
    return ran;
  } finally {
    ran = undefined;
  }
}

test("a commit of a charged and counted call runs one statement per row it writes, in one transaction without a savepoint; a charge of nothing leaves the token's row alone", () => {
  // The first call of the day makes its rows and the roll-up's first step runs.
  statementsOf(30);
  assert.deepEqual(statementsOf(30), [
    'BEGIN IMMEDIATE',
    'INSERT INTO usage_records',
    'UPDATE tokens SET',
    'INSERT INTO stats_daily',
    'INSERT INTO stats_daily',
    'COMMIT',
  ]);
  assert.deepEqual(statementsOf(0), [
    'BEGIN IMMEDIATE',
    'INSERT INTO usage_records',
    'INSERT INTO stats_daily',
    'INSERT INTO stats_daily',
    'COMMIT',
  ]);
  const token = db.prepare('SELECT used_micros FROM tokens WHERE token_id = ?').get('tok_a') as { used_micros: number };
  assert.equal(token.used_micros, 60, 'the token has spent what it was charged');
  const rows = db.prepare('SELECT bucket, calls, billed, amount_micros FROM stats_daily ORDER BY bucket').all();
  assert.deepEqual(
    rows.map((row) => ({ ...(row as object) })),
    [
      { bucket: -1, calls: 0, billed: 3, amount_micros: 60 },
      { bucket: 0, calls: 3, billed: 0, amount_micros: 0 },
    ],
  );
});

test('a commit whose charges include one that cannot be written (its account is gone) writes the others once each and reports that one', () => {
  const errors: unknown[] = [];
  const own = new GroupCommit(db, (error) => errors.push(error));
  const ownBilling = new BillingService(
    new UsageRepo(db),
    clock,
    {},
    {
      limits: { usageRawMaxAgeMs: 365 * 86_400_000, pruneBatch: 100, usageRollupEveryMs: 3_600_000 },
      onError: (error) => errors.push(error),
      writes: own,
    },
  );
  const before = (db.prepare('SELECT used_micros FROM tokens WHERE token_id = ?').get('tok_a') as { used_micros: number }).used_micros;
  const calls = () => (db.prepare('SELECT COUNT(*) AS n FROM usage_records').get() as { n: number }).n;
  const recorded = calls();
  const charge = (accountId: number, amountMicros: number) =>
    ownBilling.chargeAnswered(
      { ...principal, accountId },
      { endpoint: '/v1/chat/completions', model: 'm', inputTokens: 1, outputTokens: 1, amountMicros },
    );
  charge(account.id, 5);
  charge(account.id + 1000, 7);
  charge(account.id, 11);
  own.flush();
  assert.equal(errors.length, 1, 'the one charge that cannot be written is reported');
  assert.equal(calls(), recorded + 2, 'the two others are recorded, once each');
  const after = (db.prepare('SELECT used_micros FROM tokens WHERE token_id = ?').get('tok_a') as { used_micros: number }).used_micros;
  assert.equal(after, before + 16, "the token has spent the two others' amounts, once each");
});

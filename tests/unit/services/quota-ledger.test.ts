// Unit tests of the quota ledger: reservations taken and checked in one step, released exactly once on every path, and charges counted until they are written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import type { Principal } from '../../../electron/gateway/principal.ts';
import { BillingService } from '../../../electron/gateway/services/billing.ts';
import { QuotaLedger, type Reservation } from '../../../electron/gateway/services/quota-ledger.ts';
import { STORAGE_LIMITS } from '../../../electron/gateway/services/storage-limits.ts';
import { AccountsRepo } from '../../../electron/gateway/storage/accounts-repo.ts';
import { DEFERRED_COMMIT_MS, GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { TokensRepo } from '../../../electron/gateway/storage/tokens-repo.ts';
import { UsageRepo } from '../../../electron/gateway/storage/usage-repo.ts';
import { tempDatabase } from '../../helpers/database.ts';

const capped = (quotaMicros: number | null, tokenId = 'tok_a'): Principal => ({ accountId: 1, accountName: 'a', tokenId, quotaMicros });

const refusedForQuota = (error: unknown) => error instanceof GatewayError && error.kind === 'forbidden' && /quota/.test(error.message);

/** A temporary database holding account `a` and its token `tok_a` with a quota of `quotaMicros`. */
function tokenWithQuota(quotaMicros: number) {
  const db = tempDatabase();
  const account = new AccountsRepo(db).ensure('a', 0);
  const tokens = new TokensRepo(db);
  tokens.insert({
    token_id: 'tok_a',
    account_id: account.id,
    name: 'a',
    token_hash: 'h',
    token_hint: 'h',
    created_at: 0,
    expires_at: null,
    quota_micros: quotaMicros,
    models: null,
  });
  return { db, tokens };
}

test('reservations taken at once never hold more than the quota left; the one that would pass it is refused', () => {
  const ledger = new QuotaLedger(() => 200);
  const principal = capped(1_000);
  const taken: Reservation[] = [];
  let refused = 0;
  for (let call = 0; call < 40; call++) {
    try {
      taken.push(ledger.reserve(principal, 150));
    } catch (error) {
      assert.ok(refusedForQuota(error), String(error));
      refused++;
    }
  }
  // 800 left: five calls of 150 fit, the other 35 are refused.
  assert.equal(taken.length, 5);
  assert.equal(refused, 35);
  assert.equal(ledger.heldBy('tok_a'), 750);
  // Another token's quota is its own.
  assert.equal(ledger.reserve(capped(1_000, 'tok_b'), 150).micros, 150);
  for (const reservation of taken) reservation.release();
  assert.equal(ledger.heldBy('tok_a'), 0);
  assert.equal(ledger.reserve(principal, 800).micros, 800);
});

test('a reservation is released exactly once, whether its call is answered, fails, or is released twice', async () => {
  const ledger = new QuotaLedger(() => 0);
  const principal = capped(1_000);
  const answered = ledger.reserve(principal, 300);
  const failed = ledger.reserve(principal, 300);
  assert.equal(ledger.heldBy('tok_a'), 600);
  assert.equal(await answered.during(async () => 'ok'), 'ok');
  assert.equal(ledger.heldBy('tok_a'), 300);
  await assert.rejects(
    failed.during(async () => {
      throw new Error('upstream gone');
    }),
    /upstream gone/,
  );
  assert.equal(ledger.heldBy('tok_a'), 0);
  // A release after `during` already released, and a second release, give nothing back twice.
  failed.release();
  failed.release();
  const kept = ledger.reserve(principal, 500);
  answered.release();
  assert.equal(ledger.heldBy('tok_a'), 500);
  kept.release();
});

test('concurrent calls: each holds while it runs, and what runs at once never passes the quota', async () => {
  const ledger = new QuotaLedger(() => 0);
  const principal = capped(1_000);
  let running = 0;
  let most = 0;
  const outcomes = await Promise.allSettled(
    Array.from({ length: 40 }, async (_, index) => {
      // Calls arrive over several turns, each running a few turns.
      for (let wait = 0; wait < index % 5; wait++) await new Promise((resolve) => setImmediate(resolve));
      return ledger.reserve(principal, 250).during(async () => {
        running++;
        most = Math.max(most, running);
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
        running--;
      });
    }),
  );
  assert.ok(most <= 4, `at most 4 calls of 250 fit a quota of 1000 at once, saw ${most}`);
  assert.ok(outcomes.some((outcome) => outcome.status === 'fulfilled'));
  for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(refusedForQuota(outcome.reason));
  assert.equal(ledger.heldBy('tok_a'), 0);
});

test('a token without a quota holds nothing, and the ledger keeps no entry for it', () => {
  let asked = 0;
  const ledger = new QuotaLedger(() => (asked++, 0));
  const reservation = ledger.reserve(capped(null), 1e12);
  assert.equal(reservation.micros, 0);
  assert.equal(ledger.reserve({ accountId: 1, accountName: 'a', tokenId: 'tok_a' }, 1e12).micros, 0);
  ledger.pending(capped(null), 5);
  assert.equal(ledger.heldBy('tok_a'), 0);
  assert.equal(asked, 0, 'no spent amount is read for a token without a quota');
});

test('a charge made but not yet written (group commit) still counts against the quota, until its write', async () => {
  const { db, tokens } = tokenWithQuota(1_000);
  const ledger = new QuotaLedger((tokenId) => tokens.usedMicros(tokenId) ?? 0);
  const writes = new GroupCommit(db, (error) => assert.fail(String(error)));
  const clock = { now: () => 1_700_000_000_000 };
  const billing = new BillingService(
    new UsageRepo(db),
    clock,
    {},
    { limits: STORAGE_LIMITS, onError: assert.fail, writes },
    undefined,
    ledger,
  );
  const principal = capped(1_000);
  const held = billing.reserve(principal, () => ({ model: 'm', inputTokens: 0, outputTokens: 0, amountMicros: 600 }));
  billing.chargeAnswered(principal, { endpoint: '/x', model: 'm', inputTokens: 0, outputTokens: 0, amountMicros: 600 });
  held.release();
  // Not written yet: the charge still holds its 600.
  assert.equal(tokens.usedMicros('tok_a'), 0);
  assert.throws(
    () => billing.reserve(principal, () => ({ model: 'm', inputTokens: 0, outputTokens: 0, amountMicros: 500 })),
    refusedForQuota,
  );
  writes.flush();
  assert.equal(tokens.usedMicros('tok_a'), 600);
  assert.equal(ledger.heldBy('tok_a'), 0);
  assert.throws(
    () => billing.reserve(principal, () => ({ model: 'm', inputTokens: 0, outputTokens: 0, amountMicros: 500 })),
    refusedForQuota,
  );
  assert.equal(billing.reserve(principal, () => ({ model: 'm', inputTokens: 0, outputTokens: 0, amountMicros: 400 })).micros, 400);
});

/** A token with a quota of 1,000 micro-units, its quota ledger, and billing whose charges go through a group commit (`onError` told of a failed deferred write). */
function billedThroughGroupCommit(onError: (error: unknown) => void) {
  const { db, tokens } = tokenWithQuota(1_000);
  const ledger = new QuotaLedger((tokenId) => tokens.usedMicros(tokenId) ?? 0);
  const writes = new GroupCommit(db, onError);
  const billing = new BillingService(
    new UsageRepo(db),
    { now: () => 1_700_000_000_000 },
    {},
    { limits: STORAGE_LIMITS, onError: assert.fail, writes },
    undefined,
    ledger,
  );
  return { tokens, ledger, writes, billing };
}

test('a commit replayed one write at a time (another write failed) counts each charge once: the quota held stays exact', async () => {
  const reported: unknown[] = [];
  const { tokens, ledger, writes, billing } = billedThroughGroupCommit((error) => reported.push(error));
  const principal = capped(1_000);
  const usage = (amountMicros: number) => ({ model: 'm', inputTokens: 0, outputTokens: 0, amountMicros });
  // A call still under way holds 300; two calls answered are charged 200 and 100 in the same turn as a write that fails.
  const underWay = billing.reserve(principal, () => usage(300));
  billing.chargeAnswered(principal, { endpoint: '/x', ...usage(200) });
  writes.defer(() => {
    throw new Error('another bookkeeping write fails');
  });
  await billing.chargeCommitted(principal, { endpoint: '/x', ...usage(100) });
  assert.equal(reported.length, 1, 'the failing write is reported alone');
  assert.equal(tokens.usedMicros('tok_a'), 300, 'both charges are written once');
  assert.equal(ledger.heldBy('tok_a'), 300, 'only the call under way holds anything now');
  // 1,000 − 300 spent − 300 held: 400 left, not a micro more.
  assert.throws(() => billing.reserve(principal, () => usage(401)), refusedForQuota);
  assert.equal(billing.reserve(principal, () => usage(400)).micros, 400);
  underWay.release();
});

test("a relayed answer's charge to a token with a quota is committed as its turn ends (the next call's token check reads it); without a quota it waits for the deferred commit", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { tokens, billing } = billedThroughGroupCommit((error) => assert.fail(String(error)));
  const usage = { endpoint: '/x', model: 'm', inputTokens: 0, outputTokens: 0, amountMicros: 250 };
  const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

  billing.chargeAnswered(capped(1_000), usage);
  await turnEnds();
  assert.equal(tokens.usedMicros('tok_a'), 250, 'a token with a quota: committed at the end of the turn');

  billing.chargeAnswered(capped(null), usage);
  await turnEnds();
  assert.equal(tokens.usedMicros('tok_a'), 250, 'a token without a quota: not yet');
  t.mock.timers.tick(DEFERRED_COMMIT_MS);
  assert.equal(tokens.usedMicros('tok_a'), 500, 'committed DEFERRED_COMMIT_MS later');
});

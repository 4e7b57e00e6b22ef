// Unit tests of the cached reads of channels, prices, presented tokens and asset list totals: read once while nothing changes, fresh after a write of this process at once and after another connection's commit once DATA_VERSION_STANDS_MS passed (`data_version` is read at most that often, and inside each group commit, which a check right after it trusts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, test } from 'node:test';
import { hashToken } from '../../../electron/gateway/ids.ts';
import { TokensService } from '../../../electron/gateway/services/tokens.ts';
import { AccountsRepo } from '../../../electron/gateway/storage/accounts-repo.ts';
import { AssetsRepo, type AssetFilter } from '../../../electron/gateway/storage/assets-repo.ts';
import { openDatabase } from '../../../electron/gateway/storage/database.ts';
import { GroupsRepo } from '../../../electron/gateway/storage/groups-repo.ts';
import { TokensRepo } from '../../../electron/gateway/storage/tokens-repo.ts';
import { systemClock } from '../../../electron/gateway/time.ts';
import { ChannelsRepo, type ChannelSettings } from '../../../electron/gateway/storage/channels-repo.ts';
import { PricesRepo } from '../../../electron/gateway/storage/prices-repo.ts';
import { GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { DATA_VERSION_STANDS_MS } from '../../../electron/gateway/storage/read-cache.ts';
import { seedGroup, tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
/** Returns once DATA_VERSION_STANDS_MS passed on the monotonic clock: a check after it reads `data_version` again. */
async function pastTheLastRead(): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < DATA_VERSION_STANDS_MS) await new Promise((resolve) => setTimeout(resolve, 1));
}

const settings = (name: string, priority = 0): ChannelSettings => ({
  name,
  kind: 'openai',
  base_url: 'https://api.example.com/v1',
  models: '*',
  priority,
  weight: 1,
  timeout_ms: 60_000,
  idle_timeout_ms: 300_000,
  deadline_ms: 1_800_000,
  api: 'chat',
  compat: null,
  headers: '{}',
  enabled: 1,
  key_hint: null,
  region: null,
  project: null,
});

test('the channel list is read once while nothing changes, and again right after a write through this process', () => {
  const repo = new ChannelsRepo(db);
  const first = repo.list();
  assert.equal(repo.list(), first, 'the same rows are answered without a query');
  assert.throws(() => {
    (first as unknown[]).push({});
  }, TypeError);

  repo.insert('ch_one', settings('one'), 1);
  const afterInsert = repo.list();
  assert.deepEqual(
    afterInsert.map((row) => row.name),
    ['one'],
  );
  // Another repository on the same connection writes: this one's list is fresh too.
  new ChannelsRepo(db).recordSuccess('ch_one', 42, 2);
  assert.equal(repo.list()[0]!.last_latency_ms, 42);
  assert.equal(repo.list()[0]!.consecutive_failures, 0);
  new ChannelsRepo(db).remove('ch_one');
  assert.deepEqual(repo.list(), []);
});

test("another connection's commit (the CLI while serve runs) shows once DATA_VERSION_STANDS_MS passed", async () => {
  const repo = new ChannelsRepo(db);
  const prices = new PricesRepo(db);
  assert.equal(prices.find('gpt-test'), undefined);
  assert.deepEqual(repo.list(), []);

  const other = openDatabase(path.dirname(db.name));
  after(() => other.close());
  new ChannelsRepo(other).insert('ch_cli', settings('from-cli', 5), 3);
  new PricesRepo(other).put({ model: 'gpt-test', input_per_mtok: 1, output_per_mtok: 2, per_call: 0, updated_at: 3 });

  await pastTheLastRead();
  assert.deepEqual(
    repo.list().map((row) => row.name),
    ['from-cli'],
  );
  assert.equal(prices.find('gpt-test')?.output_per_mtok, 2);

  new PricesRepo(other).delete('gpt-test');
  await pastTheLastRead();
  assert.equal(prices.find('gpt-test'), undefined);
});

test('a price written through this process is charged at once', () => {
  const prices = new PricesRepo(db);
  assert.equal(prices.find('gpt-own'), undefined);
  prices.put({ model: 'gpt-own', input_per_mtok: 3, output_per_mtok: 4, per_call: 0.5, updated_at: 1 });
  assert.equal(prices.find('gpt-own')?.per_call, 0.5);
  prices.delete('gpt-own');
  assert.equal(prices.find('gpt-own'), undefined);
});

test('a presented token is looked up once between writes; a revoke, an edit or a used-up quota refuses the next call', async () => {
  const tokens = new TokensRepo(db);
  const service = new TokensService(new AccountsRepo(db), tokens, systemClock);
  const { secret, token } = service.create({ account: 'cached', quota: 1 });
  const first = tokens.identify(hashToken(secret));
  assert.ok(first);
  assert.equal(tokens.identify(hashToken(secret)), first, 'kept between writes');
  assert.equal(service.authenticate(secret).tokenId, token.token_id);

  // Charges are not writes the cache has to see: the spent amount is read fresh for a token with a quota.
  tokens.addUsage(token.token_id, 1_000_000);
  assert.throws(() => service.authenticate(secret), /used up its quota/);
  assert.ok(service.update(token.token_id, { quota: 5 }));
  assert.equal(service.authenticate(secret).tokenId, token.token_id, 'a raised quota applies to the next call');

  // Another process (the CLI) revokes it: refused once DATA_VERSION_STANDS_MS passed.
  const other = openDatabase(path.dirname(db.name));
  after(() => other.close());
  assert.ok(new TokensRepo(other).revoke(token.token_id, Date.now()));
  await pastTheLastRead();
  assert.throws(() => service.authenticate(secret), /revoked/);
  assert.equal(tokens.identify(hashToken('sk-gh-unknown')), undefined);
});

test("the asset list's totals follow every write of this process at once, and another connection's once DATA_VERSION_STANDS_MS passed", async () => {
  const { account, group } = seedGroup(db, 'totals', 'grp_totals', 1);
  const add = (repo: AssetsRepo, assetId: string, name: string) =>
    repo.insert({
      asset_id: assetId,
      account_id: account.id,
      group_ref: group.id,
      url: `https://cdn.example/${assetId}.png`,
      asset_type: 'Image',
      name,
      status: 'Processing',
      upstream_id: `up-${assetId}`,
      created_at: 2,
      updated_at: 2,
    });
  const assets = new AssetsRepo(db);
  const total = (filter: AssetFilter = {}) => assets.page(account.id, filter, 10, 0).total;
  const first = add(assets, 'asset_t1', 'alpha');
  add(assets, 'asset_t2', 'beta');
  assert.equal(total(), 2);
  assert.equal(total({ status: 'Processing' }), 2);
  assert.equal(total({ nameContains: 'alp' }), 1);

  // Writes through another repository of this process: seen at once.
  new AssetsRepo(db).applyRefresh(first, {
    status: 'Active',
    resolved_url: 'https://cdn.example/a',
    failure_reason: null,
    refresh_error: null,
    updated_at: 3,
  });
  assert.equal(total({ status: 'Processing' }), 1);
  new AssetsRepo(db).rename(first, 'gamma', 4);
  assert.equal(total({ nameContains: 'alp' }), 0);

  // Another connection's commit: seen once DATA_VERSION_STANDS_MS passed.
  const other = openDatabase(path.dirname(db.name));
  after(() => other.close());
  add(new AssetsRepo(other), 'asset_t3', 'delta');
  await pastTheLastRead();
  assert.equal(total(), 3);
  assert.equal(new GroupsRepo(db).deleteWithAssets(group.id), 3);
  assert.equal(total(), 0);
});

/** A database whose `PRAGMA data_version` reads are counted: `alone` those outside a transaction (each takes its own locks), `inside` the others. */
function countingReads() {
  const counted = tempDatabase();
  const prepare = counted.prepare.bind(counted);
  const reads = { alone: 0, inside: 0 };
  counted.prepare = ((sql: string) => {
    if (sql === 'PRAGMA data_version') {
      if (counted.inTransaction) reads.inside += 1;
      else reads.alone += 1;
    }
    return prepare(sql);
  }) as typeof counted.prepare;
  return { counted, reads };
}

test('data_version is read at most once per DATA_VERSION_STANDS_MS, however many event-loop turns check a cache', async () => {
  const { counted, reads: counts } = countingReads();
  const prices = new PricesRepo(counted);
  const started = performance.now();
  // Turns of a few µs each: one read per turn (the old way) would pass the bound only if they took a millisecond each.
  for (let turn = 0; turn < 500; turn++) {
    assert.equal(prices.find('gpt-none'), undefined);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = performance.now() - started;
  const reads = counts.alone + counts.inside;
  // Each read comes at least DATA_VERSION_STANDS_MS after the one before it, all of them within `elapsed`.
  assert.ok(reads >= 1, 'the first check reads it');
  assert.ok(reads <= Math.floor(elapsed / DATA_VERSION_STANDS_MS) + 1, `${reads} reads in ${elapsed.toFixed(2)} ms`);
});

test("a group commit reads data_version inside its transaction: a check right after it reads none of its own, and sees another connection's commit made before it", () => {
  const { counted, reads } = countingReads();
  const prices = new PricesRepo(counted);
  const writes = new GroupCommit(counted, (error) => assert.fail(String(error)));
  const other = openDatabase(path.dirname(counted.name));
  after(() => other.close());
  let checksRightAfter = 0;
  for (let round = 0; round < 200; round++) {
    assert.equal(prices.find(`gpt-cli-${round}`), undefined);
    // The CLI (another connection) commits a price, then this process commits a charge of its own.
    new PricesRepo(other).put({ model: `gpt-cli-${round}`, input_per_mtok: 1, output_per_mtok: 1, per_call: 0, updated_at: round });
    const beforeCommit = performance.now();
    writes.defer(() => void counted.prepare('UPDATE tokens SET used_micros = used_micros + 1 WHERE token_id = ?').run('tok_none'));
    writes.flush();
    const aloneBefore = reads.alone;
    // Seen at once whatever the timing: by the commit's read, or by a read of the check's own once that stood its time.
    assert.equal(prices.find(`gpt-cli-${round}`)?.updated_at, round);
    if (performance.now() - beforeCommit < DATA_VERSION_STANDS_MS) {
      checksRightAfter += 1;
      assert.equal(reads.alone, aloneBefore, 'a check within DATA_VERSION_STANDS_MS of the commit reads no data_version of its own');
    }
  }
  assert.equal(reads.inside, 200, 'one read inside each commit');
  // Rounds take a fraction of a millisecond each: even a busy machine leaves some checks right after their commit.
  assert.ok(checksRightAfter > 0, 'no check came within DATA_VERSION_STANDS_MS of its commit');
});

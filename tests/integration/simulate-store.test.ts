// Integration tests of the simulator's own store: the simulated reviewer keeps its state in simulate.sqlite, not in the product database.
import assert from 'node:assert/strict';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, tempDataDir } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';

const REVIEW_MS = 10_000;

/** Names of the tables of an SQLite file, opened read-only. */
function tablesOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
      (row) => row.name,
    );
  } finally {
    db.close();
  }
}

/** Starts a gateway on `dataDir`, submits one asset and moves it into review; returns the asset id, the token and the stopped gateway's data. */
async function submitAndStop(dataDir: string, clock: ReturnType<typeof manualClock>) {
  const first = await startGateway({ dataDir, clock, simReviewMs: REVIEW_MS, refreshIntervalMs: 3_600_000 });
  const api = portraitClient(first.url, first.token);
  const group = dataOf(await api.createGroup({ name: 'under review' }));
  const asset = dataOf(
    await api.createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/restart.png', asset_type: 'Image' }),
  );
  assert.equal(dataOf(await api.getAsset(asset.asset_id)).status, 'Processing');
  await first.stop({ keepData: true });
  return { assetId: asset.asset_id as string, token: first.token };
}

/** Restarts on `dataDir` and checks the asset's review ends exactly REVIEW_MS after its submission. */
async function assertReviewEndsOnTime(dataDir: string, clock: ReturnType<typeof manualClock>, assetId: string, token: string) {
  const second = await startGateway({ dataDir, clock, simReviewMs: REVIEW_MS, refreshIntervalMs: 3_600_000 });
  try {
    const api = portraitClient(second.url, token);
    clock.advance(REVIEW_MS - 1);
    assert.equal(dataOf(await api.getAsset(assetId)).status, 'Processing', 'the review time counts from the submission before the restart');
    clock.advance(1);
    const done = dataOf(await api.getAsset(assetId));
    assert.equal(done.status, 'Active');
    assert.match(done.resolved_url, /^asset:\/\/sim_/);
  } finally {
    await second.stop({ keepData: true });
  }
}

test('an asset submitted before a restart becomes Active on time after it; its review lives in simulate.sqlite, the product db has no sim_ table', async () => {
  const dataDir = tempDataDir();
  try {
    const clock = manualClock();
    const { assetId, token } = await submitAndStop(dataDir, clock);
    const simulateFile = path.join(dataDir, 'simulate.sqlite');
    assert.ok(existsSync(simulateFile));
    if (process.platform !== 'win32') assert.equal(statSync(simulateFile).mode & 0o777, 0o600);
    assert.deepEqual(
      tablesOf(path.join(dataDir, 'gatehouse.sqlite')).filter((name) => name.startsWith('sim_')),
      [],
    );
    assert.ok(tablesOf(simulateFile).includes('sim_reviews'));

    await assertReviewEndsOnTime(dataDir, clock, assetId, token);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('upgrading a data dir whose product db still holds sim_reviews: the rows move to simulate.sqlite and the review keeps its timing', async () => {
  const dataDir = tempDataDir();
  try {
    const clock = manualClock();
    const { assetId, token } = await submitAndStop(dataDir, clock);
    // Put the data dir back as the previous version left it: the review rows in the product db, migration 9 not applied, no simulator file.
    const product = new Database(path.join(dataDir, 'gatehouse.sqlite'));
    const simulate = new Database(path.join(dataDir, 'simulate.sqlite'), { readonly: true });
    const rows = simulate.prepare('SELECT upstream_id, url, asset_type, submitted_at, checks FROM sim_reviews').all();
    simulate.close();
    assert.equal(rows.length, 1);
    product.exec(`CREATE TABLE sim_reviews (upstream_id TEXT PRIMARY KEY, url TEXT NOT NULL, asset_type TEXT NOT NULL,
      submitted_at INTEGER NOT NULL, checks INTEGER NOT NULL DEFAULT 0)`);
    const insert = product.prepare('INSERT INTO sim_reviews VALUES (@upstream_id, @url, @asset_type, @submitted_at, @checks)');
    for (const row of rows) insert.run(row);
    product.prepare('DELETE FROM schema_migrations WHERE version = 9').run();
    product.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(dataDir, `simulate.sqlite${suffix}`), { force: true });

    await assertReviewEndsOnTime(dataDir, clock, assetId, token);
    assert.deepEqual(
      tablesOf(path.join(dataDir, 'gatehouse.sqlite')).filter((name) => name.startsWith('sim_')),
      [],
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

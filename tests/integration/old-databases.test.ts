// Integration tests on database files older commits wrote (tests/fixtures/databases): today's gateway migrates each and finds all that was written; a newer file is refused unchanged.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DataDirError } from '../../electron/gateway/index.ts';
import { openProductDatabase } from '../../electron/gateway/open-stores.ts';
import { JOURNAL_STEPS } from '../../electron/gateway/storage/journal-store.ts';
import { migrations } from '../../electron/gateway/storage/migrations/index.ts';
import { privateServeArgs, serveCli } from '../helpers/cli.ts';
import { manualClock } from '../helpers/clock.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/databases/', import.meta.url));
const FILES = ['gatehouse.sqlite', 'simulate.sqlite', 'journal.sqlite'];
/** The highest schema step this build knows; a file recording the next one was written by a newer Gatehouse. */
const KNOWN = migrations.at(-1)!.version;

/** What scripts/make-db-fixtures.mjs wrote into a fixture's files (fixture.json). */
interface Fixture {
  name: string;
  commit: string;
  files: Record<string, { schema: { versions: number[]; userVersion: number } }>;
  written: {
    at: string;
    tokens: { first: string; quota: { secret: string; name: string; quotaUsd: number } };
    group: { id: string; name: string };
    asset: { id: string; url: string; name: string };
    chat?: { calls: number };
    response?: { id: string };
    task3d?: { id: string };
    channel?: { name: string };
  };
}

const fixtures: Fixture[] = readdirSync(FIXTURES)
  .filter((name) => existsSync(path.join(FIXTURES, name, 'fixture.json')))
  .map((name) => ({ name, ...JSON.parse(readFileSync(path.join(FIXTURES, name, 'fixture.json'), 'utf8')) }))
  .sort((a, b) => Date.parse(a.written.at) - Date.parse(b.written.at));

const dirs = tempDirs();
after(() => dirs.removeAll());

/** A fresh data dir holding a copy of the fixture's files. */
function copyOf(fixture: Fixture): string {
  const dataDir = dirs.fresh();
  for (const file of Object.keys(fixture.files)) copyFileSync(path.join(FIXTURES, fixture.name, file), path.join(dataDir, file));
  return dataDir;
}

/** The schema steps a file records. */
function recordedSteps(file: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
  } finally {
    db.close();
  }
}

/** The ids and paths of the journal entries a file holds, oldest first (none when it has no journal table). */
function journalRows(file: string): { id: number; path: string }[] {
  const db = new Database(file, { readonly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").get();
    return table ? (db.prepare('SELECT id, path FROM journal ORDER BY id').all() as { id: number; path: string }[]) : [];
  } finally {
    db.close();
  }
}

/** Adds a schema step to a file's schema_migrations, as a newer Gatehouse would have recorded it. */
function recordStep(file: string, version: number): void {
  const db = new Database(file);
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from-the-future', 1)").run(version);
  db.close();
}

/**
 * Leaves `file` as a newer Gatehouse that crashed would: the step recorded in its WAL only, the main file as before
 * (a copy of the WAL taken while the writer is open, put back beside the main file as it was).
 */
function recordStepInWal(file: string, version: number): void {
  const main = readFileSync(file);
  const db = new Database(file);
  db.pragma('wal_autocheckpoint = 0');
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from-the-future', 1)").run(version);
  const wal = readFileSync(`${file}-wal`);
  db.close();
  writeFileSync(file, main);
  writeFileSync(`${file}-wal`, wal);
}

/** The SHA-256 of each database file of a data dir. */
function hashes(dataDir: string): Record<string, string> {
  const found = FILES.filter((file) => existsSync(path.join(dataDir, file)));
  return Object.fromEntries(
    found.map((file) => [
      file,
      createHash('sha256')
        .update(readFileSync(path.join(dataDir, file)))
        .digest('hex'),
    ]),
  );
}

/** Starts today's gateway on the data dir: the DataDirError it refused with, or a failure when it started. */
async function refusalOf(dataDir: string): Promise<DataDirError> {
  const outcome = await startGateway({ dataDir }).then(
    async (server) => {
      await server.stop({ keepData: true });
      return undefined;
    },
    (error: unknown) => error,
  );
  assert.ok(outcome instanceof DataDirError, `the gateway must refuse the newer database, got ${String(outcome)}`);
  return outcome;
}

for (const fixture of fixtures) {
  describe(`a data dir written by ${fixture.name} (${fixture.commit.slice(0, 12)})`, () => {
    test('today’s gateway applies its migrations and finds everything that commit wrote', async () => {
      const dataDir = copyOf(fixture);
      const { written } = fixture;
      const oldJournal = journalRows(path.join(dataDir, 'gatehouse.sqlite'));
      // Days are counted from the gateway's clock: the usage of the day the file was written is in its last 7 days.
      let server: TestGateway | undefined = await startGateway({ dataDir, clock: manualClock(Date.parse(written.at) + 60_000) });
      try {
        const { url } = server;
        const admin = (route: string) => request(`${url}/admin/api${route}`, 'GET', { token: server!.gateway.adminToken });
        const api = portraitClient(url, written.tokens.first);

        const groups = dataOf(await api.listGroups()).items.map((group: { group_id: string; name: string }) => [
          group.group_id,
          group.name,
        ]);
        assert.deepEqual(groups, [[written.group.id, written.group.name]], 'the old first token still authenticates and sees its group');
        const asset = dataOf(await api.getAsset(written.asset.id));
        assert.deepEqual([asset.group_id, asset.name, asset.url], [written.group.id, written.asset.name, written.asset.url]);
        assert.deepEqual(
          dataOf(await api.listAssets()).items.map((item: { asset_id: string }) => item.asset_id),
          [written.asset.id],
        );

        const quota = written.tokens.quota;
        assert.equal((await portraitClient(url, quota.secret).listGroups()).status, 200, 'the quota token still authenticates');
        const tokens = (await admin('/tokens?account=local')).body as { name: string; quota: number | null; used: number }[];
        const quotaToken = tokens.find((token) => token.name === quota.name);
        assert.equal(quotaToken?.quota, quota.quotaUsd);

        if (written.chat) {
          assert.ok(quotaToken!.used > 0, 'the quota token keeps what it spent');
          const chats = (await admin('/journal?path=/v1/chat/completions')).body;
          assert.equal(chats.total, written.chat.calls, 'the journal keeps the old chat calls');
          const entry = (await admin(`/journal/${chats.items[0].id}`)).body;
          assert.match(entry.request.text, /fixture chat/, 'an old entry keeps its request body');
          assert.match(entry.response.text, /chat\.completion/, 'and its answer');
          const usage = (await admin('/usage?days=7')).body;
          const row = usage.byToken.find((item: { label: string }) => item.label.endsWith(quota.name));
          assert.ok(
            row && row.billedCalls === 1 && row.spend > 0,
            `the usage dashboard counts the old charge: ${JSON.stringify(usage.byToken)}`,
          );
        }
        if (written.response) {
          const stored = await request(`${url}/v1/responses/${written.response.id}`, 'GET', { token: written.tokens.first });
          assert.deepEqual([stored.status, stored.body.id], [200, written.response.id], 'the stored response is retrievable');
        }
        if (written.task3d) {
          const task = await request(`${url}/v1/3d/generations/${written.task3d.id}`, 'GET', { token: written.tokens.first });
          assert.deepEqual([task.status, task.body.task_id], [200, written.task3d.id]);
        }
        if (written.channel) {
          const channels = (await admin('/channels')).body as { name: string }[];
          assert.deepEqual(
            channels.map((channel) => channel.name),
            [written.channel.name],
          );
        }
        await server.stop({ keepData: true });
        server = undefined;
        assert.deepEqual(
          recordedSteps(path.join(dataDir, 'gatehouse.sqlite')),
          migrations.map((step) => step.version),
        );
        assert.deepEqual(recordedSteps(path.join(dataDir, 'simulate.sqlite')), [1]);
        // The journal left the product database for its own file, every entry with its id.
        assert.deepEqual(journalRows(path.join(dataDir, 'gatehouse.sqlite')), [], 'the product database has no journal any more');
        if (written.chat) {
          assert.ok(oldJournal.length >= written.chat.calls, 'the fixture has journal entries to move');
          assert.deepEqual(journalRows(path.join(dataDir, 'journal.sqlite')).slice(0, oldJournal.length), oldJournal);
          assert.deepEqual(
            recordedSteps(path.join(dataDir, 'journal.sqlite')),
            JOURNAL_STEPS.map((step) => step.version),
          );
        }
      } finally {
        await server?.stop({ keepData: true });
      }
    });
  });
}

describe('a database a newer Gatehouse wrote', () => {
  const newest = fixtures.filter((fixture) => fixture.files['simulate.sqlite']).at(-1)!;

  /** A copy of the newest fixture whose `file` records the step after the highest `steps` it knows. */
  function newerCopy(file: string, step: number): { dataDir: string; before: Record<string, string> } {
    const dataDir = copyOf(newest);
    recordStep(path.join(dataDir, file), step);
    return { dataDir, before: hashes(dataDir) };
  }

  test('createGateway refuses it naming the file and both schema levels, and changes no byte of either file', async () => {
    const { dataDir, before } = newerCopy('gatehouse.sqlite', KNOWN + 1);
    const refusal = await refusalOf(dataDir);
    assert.equal(refusal.problem, 'newer_schema');
    assert.ok(refusal.message.includes(path.join(dataDir, 'gatehouse.sqlite')), refusal.message);
    assert.ok(refusal.message.includes(`a newer Gatehouse (schema ${KNOWN + 1}); this Gatehouse knows schema ${KNOWN}`), refusal.message);
    assert.match(refusal.message, /upgrade Gatehouse, or start with another --data-dir/);
    assert.deepEqual(hashes(dataDir), before);
  });

  test('a newer file a crashed Gatehouse left (the step in its WAL) is refused and its main file stays as it was', async () => {
    const dataDir = copyOf(newest);
    const file = path.join(dataDir, 'gatehouse.sqlite');
    recordStepInWal(file, KNOWN + 1);
    const before = hashes(dataDir);
    const refusal = await refusalOf(dataDir);
    assert.ok(refusal.message.includes(`(schema ${KNOWN + 1})`), refusal.message);
    assert.deepEqual(hashes(dataDir), before, 'the WAL was not folded into the file');
    assert.ok(readFileSync(`${file}-wal`).length > 0, 'the WAL is still there for the newer Gatehouse');
  });

  test('`gatehouse serve` exits non-zero with the same message, both files unchanged', async () => {
    const { dataDir, before } = newerCopy('gatehouse.sqlite', KNOWN + 1);
    const outcome = await serveCli(privateServeArgs(dataDir)).then(
      async (server) => {
        await server.stop();
        return undefined;
      },
      (error: { exitCode?: number; stderr?: string }) => error,
    );
    assert.ok(outcome, 'gatehouse serve must not start on a newer database');
    assert.equal(outcome.exitCode, 1);
    assert.match(
      outcome.stderr ?? '',
      new RegExp(`newer Gatehouse \\(schema ${KNOWN + 1}\\); this Gatehouse knows schema ${KNOWN}: upgrade Gatehouse`),
    );
    assert.doesNotMatch(outcome.stderr ?? '', /\n\s+at /, 'one plain message, no stack trace');
    assert.deepEqual(hashes(dataDir), before);
  });

  test('a newer journal.sqlite is refused at start, also beside a product database that has nothing more to move, and no file changes', async () => {
    const dataDir = copyOf(newest);
    // Upgraded by today's gateway first (its journal moved): the start then has no reason to open journal.sqlite but the check.
    openProductDatabase(dataDir).close();
    const known = JOURNAL_STEPS.at(-1)!.version;
    recordStep(path.join(dataDir, 'journal.sqlite'), known + 1);
    const before = hashes(dataDir);
    const refusal = await refusalOf(dataDir);
    assert.ok(refusal.message.includes(path.join(dataDir, 'journal.sqlite')), refusal.message);
    assert.ok(refusal.message.includes(`(schema ${known + 1}); this Gatehouse knows schema ${known}`), refusal.message);
    assert.deepEqual(hashes(dataDir), before);
  });

  test('a newer simulate.sqlite is refused before the older product database beside it is migrated', async () => {
    const { dataDir, before } = newerCopy('simulate.sqlite', 2);
    assert.ok(recordedSteps(path.join(dataDir, 'gatehouse.sqlite')).at(-1)! < KNOWN, 'the product file still has steps to apply');
    const refusal = await refusalOf(dataDir);
    assert.ok(refusal.message.includes(path.join(dataDir, 'simulate.sqlite')), refusal.message);
    assert.ok(refusal.message.includes('(schema 2); this Gatehouse knows schema 1'), refusal.message);
    assert.deepEqual(hashes(dataDir), before);
  });
});

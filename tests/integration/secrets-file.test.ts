// Integration tests of `--secrets file`: concurrent writers (CLI processes and the admin API) lose no secret, a token exists only with its kept secret, a failure is told; a broken file is a clear error naming it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { SECRETS_FILE, SECRETS_LOCK_FILE } from '../../electron/gateway/secrets/file-store.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { adminTokenOf, CLI, privateServeArgs, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, tempDirs } from '../helpers/gateway.ts';

const { fresh, removeAll } = tempDirs();
after(() => {
  removeAll();
});

/** What one `token create` gave its caller: the token and its secret, or the failure it was told of. */
type Outcome = { ok: true; tokenId: string; secret: string } | { ok: false; told: string };

/** Runs `gatehouse token create` as a child process: a token on exit 0, else the failure it printed (exit 1 and a message). */
function createWithCli(dataDir: string, account: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'token', 'create', '--data-dir', dataDir, '--account', account, '--secrets', 'file']);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) {
        const lines = out.trim().split('\n');
        return resolve({ ok: true, tokenId: lines[0]!.split('\t')[0]!, secret: lines.at(-1)! });
      }
      assert.equal(code, 1, `a failed token create exits 1: ${err}`);
      assert.equal(out, '', 'a failed token create prints no token');
      assert.match(err, /^gatehouse: \S/m, 'and says why');
      resolve({ ok: false, told: err.trim() });
    });
  });
}

/** Creates a token through the admin API: a token on 200, else the error the answer carried. */
async function createWithApi(admin: Admin, account: string): Promise<Outcome> {
  // Thirty Node processes starting at once can starve the server of CPU past its 10 s headers timeout: Node then
  // answers 408 before reading the request (nothing was created), which clients retry, as the official SDKs do.
  let created = await admin('POST', '/tokens', { account });
  for (let retry = 0; created.status === 408 && retry < 3; retry++) created = await admin('POST', '/tokens', { account });
  if (created.status === 200) return { ok: true, tokenId: created.body.token.token_id as string, secret: created.body.secret as string };
  // 503: the secret could not be kept; 408 three times over. Either way nothing was created and the caller was told.
  assert.ok([408, 503].includes(created.status), `status ${created.status}: ${JSON.stringify(created.body)}`);
  return { ok: false, told: `HTTP ${created.status} ${JSON.stringify(created.body ?? '')}` };
}

type Admin = Awaited<ReturnType<typeof adminOf>>;

async function adminOf(server: ServeProcess) {
  const adminToken = await adminTokenOf(server);
  return (method: string, route: string, body?: unknown) =>
    request(`${server.url}/admin/api${route}`, method, { token: adminToken, ...(body !== undefined && { body }) });
}

describe('secrets file', () => {
  test(
    '60 tokens created at once by 30 CLI processes and 30 admin API calls: every token listed has its secret in secrets.json (0600) and it works; every failure was told',
    { timeout: 600_000 },
    async (t) => {
      const dataDir = fresh();
      // Older entries make each read-merge-write take a few milliseconds, as on a machine with many tokens: a wider window for a race.
      const older = Object.fromEntries(
        Array.from({ length: 20_000 }, (_, i) => [`token:tok_old${i}`, `sk-gh-${String(i).padStart(40, '0')}`]),
      );
      writeFileSync(path.join(dataDir, SECRETS_FILE), JSON.stringify(older), { mode: 0o600 });
      const server = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
      try {
        const admin = await adminOf(server);
        const firstTokenId = ((await admin('GET', '/tokens')).body as { token_id: string }[])[0]!.token_id;
        const outcomes = await Promise.all([
          ...Array.from({ length: 30 }, (_, i) => createWithCli(dataDir, `cli-${i % 3}`)),
          ...Array.from({ length: 30 }, (_, i) => createWithApi(admin, `console-${i % 3}`)),
        ]);
        const made = outcomes.filter((outcome) => outcome.ok);
        const told = outcomes.filter((outcome) => !outcome.ok);
        if (told.length > 0) t.diagnostic(`${told.length} creations failed and were told: ${told.map((item) => item.told).join(' | ')}`);
        assert.ok(made.length > 0, 'some tokens were made');

        const file = path.join(dataDir, SECRETS_FILE);
        const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
        const listed = ((await admin('GET', '/tokens')).body as { token_id: string; revealable: boolean }[]).map((row) => row.token_id);
        assert.deepEqual(
          [...listed].sort(),
          [firstTokenId, ...made.map((item) => item.tokenId)].sort(),
          'the tokens listed are the first one and those whose callers got a secret: a failure left no token',
        );
        for (const tokenId of listed) {
          const secret = kept[`token:${tokenId}`];
          assert.ok(secret, `secrets.json keeps the secret of listed token ${tokenId}`);
          const models = await request(`${server.url}/v1/models`, 'GET', { token: secret });
          assert.equal(models.status, 200, `the kept secret of ${tokenId} authenticates a call`);
        }
        const lost = made.filter(({ tokenId, secret }) => kept[`token:${tokenId}`] !== secret);
        assert.deepEqual(lost, [], `${lost.length} of ${made.length} secrets lost`);
        const consoleSecrets = Object.keys(kept).filter((name) => name.startsWith('console:'));
        assert.equal(consoleSecrets.length, 1, 'the console secret the first start kept');
        const tokenEntries = Object.keys(kept).filter((name) => name.startsWith('token:') && !name.startsWith('token:tok_old'));
        assert.equal(Object.keys(older).filter((name) => !(name in kept)).length, 0, 'the older entries are all still there');
        // A secret kept for a token whose row could not be written is taken back; none is left over.
        assert.equal(tokenEntries.length, listed.length);
        assert.equal(statSync(file).mode & 0o777, 0o600);
        // And the console can reveal each of them.
        for (const { tokenId, secret } of made.slice(25, 35)) {
          assert.equal((await admin('POST', `/tokens/${tokenId}/reveal`)).body.secret, secret);
        }
      } finally {
        await server.stop();
      }
    },
  );

  test('a secrets.json lock a live process keeps: the CLI and the admin API wait, then create no token and say why (exit 1, 503 naming the lock)', async () => {
    const dataDir = fresh();
    const server = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
    const lock = path.join(dataDir, SECRETS_LOCK_FILE);
    try {
      const admin = await adminOf(server);
      const before = ((await admin('GET', '/tokens')).body as unknown[]).length;
      // This test process holds the lock, as a writer stuck on a slow disk would, from an hour ago: it is not taken over.
      writeFileSync(lock, `${process.pid}:stuck-writer`);
      const anHourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(lock, anHourAgo, anHourAgo);
      const [cli, api] = await Promise.all([createWithCli(dataDir, 'ci'), admin('POST', '/tokens', { account: 'console' })]);
      assert.equal(cli.ok, false);
      assert.ok(!cli.ok && cli.told.includes(lock) && cli.told.includes(`process ${process.pid}`), !cli.ok ? cli.told : '');
      assert.equal(api.status, 503);
      assert.match(api.body.message ?? JSON.stringify(api.body), /No token was created/);
      assert.ok(JSON.stringify(api.body).includes(lock), JSON.stringify(api.body));
      assert.equal(readFileSync(lock, 'utf8'), `${process.pid}:stuck-writer`, 'the live holder kept its lock');
      rmSync(lock);
      assert.equal(((await admin('GET', '/tokens')).body as unknown[]).length, before, 'no token was created by the refused calls');
      const again = await createWithCli(dataDir, 'ci');
      assert.ok(again.ok, 'once the lock is free, creation works');
    } finally {
      rmSync(lock, { force: true });
      await server.stop();
    }
  });

  test('a garbage secrets.json: the CLI and the admin API say which file is broken and what to do, and create no token', async () => {
    const dataDir = fresh();
    const server = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
    const file = path.join(dataDir, SECRETS_FILE);
    try {
      const admin = await adminOf(server);
      const before = (await admin('GET', '/tokens')).body.length as number;
      writeFileSync(file, '{"token:tok_1": "sk-gh-trunc');

      const cli = await runCliAsync(['token', 'create', '--data-dir', dataDir, '--account', 'ci', '--secrets', 'file']);
      assert.equal(cli.code, 1, cli.stderr);
      assert.match(cli.stderr, new RegExp(`The secrets file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`));
      assert.doesNotMatch(cli.stderr, /\n\s+at /, 'no stack trace');

      const listed = await admin('GET', '/tokens');
      assert.equal(listed.status, 503);
      assert.ok(JSON.stringify(listed.body).includes(file), `the answer names the file: ${JSON.stringify(listed.body)}`);

      const created = await admin('POST', '/tokens', { account: 'console' });
      assert.equal(created.status, 503);
      assert.ok(JSON.stringify(created.body).includes(file));

      writeFileSync(file, '{}');
      assert.equal((await admin('GET', '/tokens')).body.length, before, 'no token was created by the refused calls');
    } finally {
      await server.stop();
    }
  });

  test('a lock file left by a process that died is taken over', async () => {
    const dataDir = fresh();
    writeFileSync(path.join(dataDir, SECRETS_LOCK_FILE), '999999999');
    const store = openFileStore(dataDir);
    await store.set('token:tok_a', 'secret-a');
    assert.equal(await store.get('token:tok_a'), 'secret-a');
  });
});

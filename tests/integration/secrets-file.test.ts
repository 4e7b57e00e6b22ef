// Integration tests of `--secrets file`: concurrent writers (CLI processes and the admin API) lose no secret; a broken file is a clear error naming it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { SECRETS_FILE, SECRETS_LOCK_FILE } from '../../electron/gateway/secrets/file-store.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { CLI, consoleUrlOf, privateServeArgs, runCli, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, tempDirs } from '../helpers/gateway.ts';

const { fresh, removeAll } = tempDirs();
after(() => {
  removeAll();
});

/** Runs `gatehouse token create` as a child process and resolves with its token id and secret. */
function createWithCli(dataDir: string, account: string): Promise<{ tokenId: string; secret: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'token', 'create', '--data-dir', dataDir, '--account', account, '--secrets', 'file']);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`token create exited ${code}: ${err}`));
      const lines = out.trim().split('\n');
      resolve({ tokenId: lines[0]!.split('\t')[0]!, secret: lines.at(-1)! });
    });
  });
}

async function adminOf(server: ServeProcess) {
  const adminToken = new URL(await consoleUrlOf(server)).searchParams.get('admin_token')!;
  return (method: string, route: string, body?: unknown) =>
    request(`${server.url}/admin/api${route}`, method, { token: adminToken, ...(body !== undefined && { body }) });
}

describe('secrets file', () => {
  test('60 tokens created at once by 30 CLI processes and 30 admin API calls: every secret is in secrets.json (0600)', async () => {
    const dataDir = fresh();
    // Older entries make each read-merge-write take a few milliseconds, as on a machine with many tokens: a wider window for a race.
    const older = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`token:tok_old${i}`, `sk-gh-${String(i).padStart(40, '0')}`]),
    );
    writeFileSync(path.join(dataDir, SECRETS_FILE), JSON.stringify(older), { mode: 0o600 });
    const server = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
    try {
      const admin = await adminOf(server);
      const fromCli = Array.from({ length: 30 }, (_, i) => createWithCli(dataDir, `cli-${i % 3}`));
      const fromApi = Array.from({ length: 30 }, async (_, i) => {
        // Thirty Node processes starting at once can starve the server of CPU past its 10 s headers timeout: Node then
        // answers 408 before reading the request (nothing was created), which clients retry, as the official SDKs do.
        let created = await admin('POST', '/tokens', { account: `console-${i % 3}` });
        for (let retry = 0; created.status === 408 && retry < 3; retry++)
          created = await admin('POST', '/tokens', { account: `console-${i % 3}` });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        return { tokenId: created.body.token.token_id as string, secret: created.body.secret as string };
      });
      const made = await Promise.all([...fromCli, ...fromApi]);
      const file = path.join(dataDir, SECRETS_FILE);
      const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const lost = made.filter(({ tokenId, secret }) => kept[`token:${tokenId}`] !== secret);
      assert.deepEqual(lost, [], `${lost.length} of ${made.length} secrets lost`);
      const consoleSecrets = Object.keys(kept).filter((name) => name.startsWith('console:'));
      assert.equal(consoleSecrets.length, 1, 'the console secret the first start kept');
      assert.equal(
        Object.keys(kept).length - consoleSecrets.length,
        20_000 + 1 + made.length,
        "the older entries (and the first start's own token) are all still there",
      );
      assert.equal(statSync(file).mode & 0o777, 0o600);
      // And the console can reveal each of them.
      for (const { tokenId, secret } of made.slice(25, 35)) {
        assert.equal((await admin('POST', `/tokens/${tokenId}/reveal`)).body.secret, secret);
      }
    } finally {
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

      const cli = runCli(['token', 'create', '--data-dir', dataDir, '--account', 'ci', '--secrets', 'file']);
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

// Integration tests of the `gatehouse` CLI: serve's output and flags, first-start token, token commands beside a running server, signals.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { serveCli, runCli, runCliAsync } from '../helpers/cli.ts';
import { request, tempDataDir } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient } from '../helpers/portrait.ts';

const TOKEN = /sk-gh-[A-Za-z0-9]{40}/;

describe('gatehouse CLI', () => {
  const dataDir = tempDataDir();
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('serve on --port 0 prints the real URL and, on first start only, the local token', async () => {
    const server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(new URL(server.url).port, '0');
      const tokenLine = server.stdout.find((line) => TOKEN.test(line));
      assert.ok(tokenLine, 'the first start prints a token');
      const token = TOKEN.exec(tokenLine)![0];
      const group = dataOf(await portraitClient(server.url, token).createGroup({ name: 'from the CLI test' }));
      assert.match(group.group_id, /^grp_/);
      assert.equal(await server.stop('SIGTERM'), 0, server.stderr());
      assert.match(server.stderr(), /stopped/);
    } finally {
      await server.stop('SIGKILL');
    }
    const again = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      assert.equal(
        again.stdout.some((line) => TOKEN.test(line)),
        false,
        'no new token on a later start',
      );
    } finally {
      assert.equal(await again.stop('SIGINT'), 0);
    }
  });

  test('token create/list/revoke work while a server runs on the same data dir', async () => {
    const server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      const created = runCli([
        'token',
        'create',
        '--data-dir',
        dataDir,
        '--account',
        'ci-bot',
        '--name',
        'ci',
        '--quota',
        '2.5',
        '--secrets',
        'none',
      ]);
      assert.equal(created.code, 0, created.stderr);
      const secret = created.lines.at(-1)!;
      assert.match(secret, new RegExp(`^${TOKEN.source}$`));
      const api = portraitClient(server.url, secret);
      assert.equal(dataOf(await api.listGroups()).total, 0, 'a new account starts empty');

      // runCliAsync between calls of the server: a blocked event loop would leave the client's idle connection for the server to cut.
      const listed = await runCliAsync(['token', 'list', '--data-dir', dataDir, '--account', 'ci-bot']);
      assert.equal(listed.code, 0);
      assert.equal(listed.lines.length, 1);
      const [tokenId, account, name, hint, state, , quota] = listed.lines[0]!.split('\t');
      assert.match(tokenId!, /^tok_/);
      assert.deepEqual([account, name, state, quota], ['ci-bot', 'ci', 'active', 'quota 2.5000 USD (used 0.0000 USD)']);
      assert.equal(listed.stdout.includes(secret), false, 'list never shows the secret');
      assert.ok(secret.startsWith(hint!.split('…')[0]!) && secret.endsWith(hint!.split('…')[1]!));

      const revoked = await runCliAsync(['token', 'revoke', tokenId!, '--data-dir', dataDir]);
      assert.equal(revoked.code, 0);
      assert.match(failureOf(await api.listGroups(), 403), /revoked/);
    } finally {
      await server.stop();
    }
  });

  test('token create with an expiry in the past gives a token that is refused with 403', async () => {
    const server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      const created = runCli([
        'token',
        'create',
        '--data-dir',
        dataDir,
        '--account',
        'old',
        '--expires-at',
        '2020-01-01T00:00:00Z',
        '--secrets',
        'none',
      ]);
      assert.equal(created.code, 0, created.stderr);
      const response = await request(`${server.url}/v1/portrait/groups`, 'GET', { token: created.lines.at(-1)! });
      assert.match(failureOf(response, 403), /expired/);
    } finally {
      await server.stop();
    }
  });

  test('bad flags and values are usage errors with exit code 2 and a clear message', () => {
    const cases: [string[], RegExp][] = [
      [['serve', '--port', 'abc', '--data-dir', dataDir], /--port must be a whole number from 0 to 65535/],
      [['serve', '--bogus'], /Unknown option '--bogus'/],
      [['serve', '--secrets', 'vault', '--data-dir', dataDir], /--secrets must be one of auto, keychain, file, none/],
      [['token', 'create', '--data-dir', dataDir], /needs --account/],
      [['token', 'create', '--data-dir', dataDir, '--account', 'a', '--expires-at', 'tomorrow'], /RFC 3339/],
      [['token', 'create', '--data-dir', dataDir, '--account', 'a', '--quota=-1'], /--quota must be/],
      [['token', 'revoke', 'tok_missing', '--data-dir', dataDir], /no token with id tok_missing/],
      [['serve', '--model-aliases', 'gpt-4o', '--data-dir', dataDir], /--model-aliases takes name=model pairs/],
      [['serve', '--tls-port', 'on', '--data-dir', dataDir], /--tls-port must be a whole number/],
      [['launch'], /unknown command "launch"/],
    ];
    for (const [args, message] of cases) {
      const result = runCli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
    }
  });

  test('--help after any command prints that command’s usage and exits 0, writing nothing', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-help-home-'));
    try {
      const cases: [string[], RegExp][] = [
        [['connect', 'claude-code', '--help', '--data-dir', dataDir], /gatehouse connect claude-code\|codex\|gemini-cli/],
        [['cassette', 'verify', '-h'], /gatehouse cassette verify DIR/],
        [['channel', 'add', '--help'], /gatehouse channel add --preset ID/],
        [['token', 'create', '--help', '--data-dir', dataDir], /gatehouse token create --account NAME/],
      ];
      for (const [args, usage] of cases) {
        const result = runCli(args, { GATEHOUSE_HOME_DIR: home });
        assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stdout, usage, args.join(' '));
        assert.equal(result.stderr, '', args.join(' '));
      }
      assert.deepEqual(readdirSync(home), [], 'connect --help wrote no tool config');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('environment variables configure serve like the flags do', async () => {
    const envDir = tempDataDir();
    const server = await serveCli([], { GATEHOUSE_PORT: '0', GATEHOUSE_DATA_DIR: envDir, GATEHOUSE_SECRETS: 'none' });
    try {
      assert.match(server.stderr(), new RegExp(`data dir: ${envDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.ok(server.stdout.some((line) => TOKEN.test(line)));
    } finally {
      await server.stop();
      rmSync(envDir, { recursive: true, force: true });
    }
  });
});

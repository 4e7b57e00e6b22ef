// Integration tests of `gatehouse serve` for CI: GATEHOUSE_ADMIN_TOKEN and GATEHOUSE_TOKEN (across a restart), --ephemeral and --ready-json.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import OpenAI from 'openai';
import { eventually } from '../helpers/eventually.ts';
import { tempDirs } from '../helpers/gateway.ts';
import { privateServeArgs, serveCli, type ServeProcess } from '../helpers/cli.ts';

const ADMIN_TOKEN = 'ci-admin-token-0123456789';
const TOKEN = 'sk-ci-fixed-token-0123456789abcdef';

/** The line `--ready-json` prints, parsed, once printed. */
const readyOf = (server: ServeProcess) =>
  eventually(() => {
    const line = server.stdout.find((item) => item.startsWith('{'));
    return line === undefined ? undefined : (JSON.parse(line) as Record<string, string | null>);
  }, 'the --ready-json line');

describe('serve for CI', () => {
  const dirs = tempDirs();
  after(() => dirs.removeAll());

  test('GATEHOUSE_ADMIN_TOKEN and GATEHOUSE_TOKEN work with serve, and again after a restart on the same data dir', async () => {
    const dataDir = dirs.fresh();
    const env = { GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN, GATEHOUSE_TOKEN: TOKEN };
    for (const run of ['first start', 'restart']) {
      const server = await serveCli(privateServeArgs(dataDir), env);
      try {
        assert.ok(!server.stdout.some((line) => line.includes('first start')), `${run}: no first token is made beside the given one`);
        const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
        const answer = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
        assert.equal(answer.object, 'chat.completion', run);
        const status = await fetch(`${server.url}/admin/api/status`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        assert.equal(status.status, 200, run);
        assert.deepEqual(((await status.json()) as { accounts: string[] }).accounts, ['local']);
        const tokens = (await (
          await fetch(`${server.url}/admin/api/tokens`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
        ).json()) as unknown[];
        assert.equal(tokens.length, 1, `${run}: the given token is stored once`);
        assert.ok(!JSON.stringify(tokens).includes(TOKEN), 'only its hint is listed');
      } finally {
        assert.equal(await server.stop(), 0);
      }
    }
  });

  test('a GATEHOUSE_TOKEN that is no token, or a short admin token, is refused at start naming the variable', async () => {
    for (const [env, name] of [
      [{ GATEHOUSE_TOKEN: 'not-a-token' }, 'GATEHOUSE_TOKEN'],
      [{ GATEHOUSE_ADMIN_TOKEN: 'short' }, 'GATEHOUSE_ADMIN_TOKEN'],
    ] as const) {
      const failed = await serveCli(privateServeArgs(dirs.fresh()), env).then(
        () => assert.fail('serve started'),
        (error: { exitCode: number; stderr: string }) => error,
      );
      assert.equal(failed.exitCode, 2);
      assert.match(failed.stderr, new RegExp(name));
      assert.ok(!failed.stderr.includes(env[name as keyof typeof env]!), 'the value is not echoed');
    }
  });

  test('--ready-json prints one JSON line with a working url, and --ephemeral leaves no data dir after SIGTERM', async () => {
    const server = await serveCli(['--ephemeral', '--ready-json', '--port', '0', '--tls-port', 'off'], {
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    let dataDir: string | undefined;
    try {
      const ready = await readyOf(server);
      assert.deepEqual(Object.keys(ready).sort(), ['admin_token', 'console_url', 'tls_url', 'token', 'url']);
      assert.equal(ready.url, server.url);
      assert.equal(ready.tls_url, null);
      assert.equal(ready.admin_token, ADMIN_TOKEN);
      assert.match(ready.token ?? '', /^sk-gh-/, 'the first token of the fresh data dir');
      const client = new OpenAI({ baseURL: `${ready.url}/v1`, apiKey: ready.token!, maxRetries: 0 });
      assert.equal((await client.models.list()).object, 'list');
      const consoleUrl = new URL(ready.console_url!);
      assert.equal(consoleUrl.origin, new URL(ready.url!).origin);
      assert.equal(consoleUrl.searchParams.get('admin_token'), ADMIN_TOKEN);
      dataDir = /ephemeral: the data dir (\S+) is removed at exit/.exec(server.stderr())?.[1];
      assert.ok(dataDir && existsSync(dataDir), 'the temporary data dir exists while serving');
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0);
    }
    assert.equal(existsSync(dataDir!), false, 'removed at exit');
  });
});

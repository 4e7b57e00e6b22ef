// Integration tests of the console's serving at /console: redirect keeping the token, strict CSP, SPA fallback, no escape from the build folder, the not-built page, and the CLI's console line.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { CONSOLE_CSP } from '../../shared/console-address.ts';
import { consoleRoutes, resolveInside } from '../../electron/gateway/routes/console.ts';
import type { GatewayContext } from '../../electron/gateway/context.ts';
import { consoleUrlOf, serveCli } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

/** A console app over a given build folder (no gateway needed: the routes only read files). */
async function consoleApp(dirs: string[]) {
  const app = Fastify();
  await app.register(consoleRoutes, { context: {} as GatewayContext, consoleDirs: dirs });
  await app.ready();
  return app;
}

describe('console serving', () => {
  const build = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-console-'));
  before(() => {
    mkdirSync(path.join(build, 'assets'));
    writeFileSync(path.join(build, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(path.join(build, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(path.join(path.dirname(build), 'secret.txt'), 'outside');
  });
  after(() => rmSync(build, { recursive: true, force: true }));

  test('/console redirects to /console/ and keeps the admin token in the query', async () => {
    const app = await consoleApp([build]);
    const response = await app.inject({ url: '/console?admin_token=abc' });
    assert.equal(response.statusCode, 302);
    assert.equal(response.headers.location, '/console/?admin_token=abc');
  });

  test('pages and assets come with a strict CSP; unknown page paths fall back to index.html', async () => {
    const app = await consoleApp([build]);
    const index = await app.inject({ url: '/console/' });
    assert.equal(index.statusCode, 200);
    assert.match(String(index.headers['content-type']), /text\/html/);
    assert.equal(index.headers['content-security-policy'], CONSOLE_CSP);
    assert.match(CONSOLE_CSP, /script-src 'self'(;|$)/, 'no inline or remote scripts');
    assert.match(CONSOLE_CSP, /frame-ancestors 'none'/);
    assert.equal(index.headers['referrer-policy'], 'no-referrer', 'the admin token never leaks in a Referer');
    assert.equal(index.headers['cache-control'], 'no-store');
    const script = await app.inject({ url: '/console/assets/index-abc.js' });
    assert.match(String(script.headers['content-type']), /javascript/);
    assert.match(String(script.headers['cache-control']), /immutable/);
    assert.equal((await app.inject({ url: '/console/tokens' })).body, '<!doctype html><title>console</title>');
    assert.equal((await app.inject({ url: '/console/assets/missing.js' })).statusCode, 404);
  });

  test('no path leaves the build folder', async () => {
    const app = await consoleApp([build]);
    for (const url of [
      '/console/../secret.txt',
      '/console/%2e%2e/secret.txt',
      '/console/..%2fsecret.txt',
      '/console/%2e%2e%2fsecret.txt',
    ]) {
      const response = await app.inject({ url });
      assert.notEqual(response.body, 'outside', url);
    }
    assert.equal(resolveInside(build, '../secret.txt'), undefined);
    assert.equal(resolveInside(build, '%2e%2e/secret.txt'), undefined);
    assert.equal(resolveInside(build, '%E0%A4%A'), undefined, 'malformed escapes are refused');
    assert.equal(resolveInside(build, 'assets/index-abc.js'), path.join(build, 'assets', 'index-abc.js'));
  });

  test('without a build, /console explains how to build it', async () => {
    const app = await consoleApp([path.join(build, 'nowhere')]);
    const response = await app.inject({ url: '/console/' });
    assert.equal(response.statusCode, 503);
    assert.match(response.body, /npm run build:renderer/);
  });

  test('gatehouse serve prints a ready-to-open console URL right after the listening line', async () => {
    const dataDir = tempDataDir();
    const server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      const listening = server.stdout.findIndex((line) => line.startsWith('listening on '));
      await new Promise<void>((resolve) => {
        const check = () => (server.stdout.length > listening + 1 ? resolve() : setTimeout(check, 20));
        check();
      });
      const line = server.stdout[listening + 1]!;
      const match = /^console: (http:\/\/127\.0\.0\.1:\d+\/console\/\?admin_token=([A-Za-z0-9_-]{40,}))$/.exec(line);
      assert.ok(match, `unexpected console line: ${line}`);
      assert.ok(match[1]!.startsWith(server.url));
      const status = await fetch(`${server.url}/admin/api/status`, { headers: { authorization: `Bearer ${match[2]}` } });
      assert.equal(status.status, 200, 'the printed admin token opens the admin API');
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('on a data dir that does not exist yet, the first start keeps the console secret: the next start prints the same address', async () => {
    const parent = tempDataDir();
    const dataDir = path.join(parent, 'not-yet');
    const consoleLine = async () => {
      const server = await serveCli([
        '--port',
        '0',
        '--tls-port',
        'off',
        '--data-dir',
        dataDir,
        '--secrets',
        'file',
        '--settings-file',
        'off',
      ]);
      try {
        const url = await consoleUrlOf(server);
        return url.slice(url.indexOf('?'));
      } finally {
        await server.stop();
      }
    };
    try {
      const first = await consoleLine();
      assert.equal(await consoleLine(), first);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

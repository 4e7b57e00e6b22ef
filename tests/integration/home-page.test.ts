// Integration test of GET /: a browser gets a small page saying the gateway runs (strict CSP, no secrets), an API client JSON.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import packageJson from '../../package.json' with { type: 'json' };
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

let server: TestGateway;
before(async () => {
  server = await startGateway();
});
after(() => server.stop());

test('a browser (Accept: text/html) gets a page: running, the version, the base URL, a link to /console; its CSP allows nothing else', async () => {
  const response = await fetch(`${server.url}/`, {
    headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  const html = await response.text();
  assert.match(html, /Gatehouse is running/);
  assert.ok(html.includes(packageJson.version), 'the version');
  assert.ok(html.includes(`${server.url}/v1`), 'the base URL');
  assert.match(html, /<a href="\/console\/">/);
  assert.ok(!html.includes(server.token) && !html.includes(server.gateway.adminToken), 'no secret');
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
  assert.doesNotMatch(csp, /unsafe/);
  assert.doesNotMatch(html, /<script/);
});

test('an API client (no Accept, or JSON) gets JSON saying the same, without authentication', async () => {
  for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
    const response = await fetch(`${server.url}/`, { headers });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(body, {
      status: 'ok',
      message: 'Gatehouse is running',
      name: 'Gatehouse',
      version: packageJson.version,
      base_url: `${server.url}/v1`,
      console: '/console',
    });
  }
});

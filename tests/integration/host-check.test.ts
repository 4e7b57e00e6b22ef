// Integration tests of the DNS-rebinding defence: a foreign Host is refused on every route and upgrade (HTTP and TLS), loopback names and allowed aliases work, file URLs keep the gateway's address.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { parseServeOptions } from '../../electron/cli/options.ts';
import { UsageError } from '../../electron/gateway/options/serve-options.ts';
import { ADMIN_WS_PROTOCOL, ADMIN_WS_TOKEN_PREFIX } from '../../shared/admin-events.ts';
import { startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';
import { rawRequest, tryUpgrade } from '../helpers/raw-http.ts';

const ALIAS = 'gatehouse.test';

describe('Host check (DNS rebinding)', () => {
  let gw: TestGateway;
  let tlsUrl: string;
  let ca: string;
  const port = () => new URL(gw.url).port;
  before(async () => {
    gw = await startGateway({ tlsPort: 0, allowedHosts: [ALIAS], sim3dMs: 0 });
    tlsUrl = gw.gateway.context.runtime.tlsUrl!;
    ca = readFileSync(`${gw.dataDir}/tls/ca.pem`, 'utf8');
  });
  after(() => gw.stop());

  test("a foreign Host is refused with 403 in each caller's protocol on every route family, valid token or not", async () => {
    const evil = { host: `evil.example:${port()}`, authorization: `Bearer ${gw.token}` };
    const openai = await rawRequest(`${gw.url}/v1/models`, { headers: evil });
    assert.equal(openai.status, 403);
    assert.equal(openai.body.error.type, 'permission_error');
    assert.match(openai.body.error.message, /--allowed-hosts/);
    const anthropic = await rawRequest(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: evil,
      body: { model: 'sim-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.equal(anthropic.status, 403);
    assert.equal(anthropic.body.type, 'error');
    assert.equal(anthropic.body.error.type, 'permission_error');
    const gemini = await rawRequest(`${gw.url}/v1beta/models`, { headers: { ...evil, 'x-goog-api-key': gw.token } });
    assert.equal(gemini.status, 403);
    assert.equal(gemini.body.error.status, 'PERMISSION_DENIED');
    const portrait = await rawRequest(`${gw.url}/v1/portrait/groups`, { headers: evil });
    assert.equal(portrait.status, 403);
    assert.equal(portrait.body.success, false);
    for (const path of ['/healthz', '/console/', '/admin/api/status', '/v1/files/images/AAAAAAAAAAAAAAAAAAAAAAAA.png']) {
      const answer = await rawRequest(`${gw.url}${path}`, {
        headers: { host: `evil.example:${port()}`, authorization: `Bearer ${gw.gateway.adminToken}` },
      });
      assert.equal(answer.status, 403, path);
    }
    // The same call with the gateway's own name is served: the Host is what was refused. So are SDK clients at 127.0.0.1 and localhost.
    assert.equal((await rawRequest(`${gw.url}/v1/models`, { headers: { ...evil, host: `127.0.0.1:${port()}` } })).status, 200);
    for (const base of [gw.url, gw.url.replace('127.0.0.1', 'localhost')]) {
      const client = new OpenAI({ apiKey: gw.token, baseURL: `${base}/v1` });
      const answer = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] });
      assert.equal(answer.object, 'chat.completion', base);
    }
  });

  test('loopback names (any port, *.localhost), the allowed alias and a request without Host (HTTP/1.0) are served; look-alikes are refused', async () => {
    for (const host of [
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      'evil.example@127.0.0.1',
      '[::1].evil.example',
      'localhost:80:80',
    ]) {
      const answer = await rawRequest(`${gw.url}/healthz`, { headers: { host } });
      assert.equal(answer.status, 403, `Host "${host}"`);
    }
    for (const host of [
      `127.0.0.1:${port()}`,
      `localhost:${port()}`,
      'LOCALHOST',
      `app.localhost:${port()}`,
      '127.8.9.10:1',
      `${ALIAS}:${port()}`,
      'Gatehouse.Test.',
      '[::1]:8080',
    ]) {
      const answer = await rawRequest(`${gw.url}/healthz`, { headers: { host } });
      assert.equal(answer.status, 200, `Host "${host}"`);
    }
    const status = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port()), '127.0.0.1', () => socket.end('GET /healthz HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text.split('\r\n', 1)[0]!));
      socket.on('error', reject);
    });
    assert.match(status, /^HTTP\/1\.[01] 200/);
  });

  test('the TLS listener refuses a foreign Host as well', async () => {
    const answer = await rawRequest(`${tlsUrl}/v1/models`, { ca, headers: { host: 'evil.example', authorization: `Bearer ${gw.token}` } });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.type, 'permission_error');
  });

  test('WebSocket upgrades with a foreign Host are refused with 403 before upgrading (ws:// and wss://, realtime and admin)', async () => {
    const realtimeHeaders = { host: `evil.example:${port()}`, authorization: `Bearer ${gw.token}` };
    const plain = await tryUpgrade(`${gw.url.replace(/^http/, 'ws')}/v1/realtime?model=sim-realtime`, { headers: realtimeHeaders });
    assert.deepEqual(plain.opened ? 'opened' : plain.status, 403);
    const secure = await tryUpgrade(`${tlsUrl.replace(/^https/, 'wss')}/v1/realtime`, {
      ca,
      headers: { ...realtimeHeaders, host: 'evil.example' },
    });
    assert.deepEqual(secure.opened ? 'opened' : secure.status, 403);
    const admin = await tryUpgrade(`${gw.url.replace(/^http/, 'ws')}/admin/ws`, {
      headers: { host: `evil.example:${port()}` },
      protocols: [ADMIN_WS_PROTOCOL, `${ADMIN_WS_TOKEN_PREFIX}${gw.gateway.adminToken}`],
    });
    assert.deepEqual(admin.opened ? 'opened' : admin.status, 403);
    // With the gateway's own name the same upgrades open.
    const own = await tryUpgrade(`${gw.url.replace(/^http/, 'ws')}/v1/realtime`, { headers: { authorization: `Bearer ${gw.token}` } });
    assert.equal(own.opened, true);
  });

  test("file URLs keep the gateway's own address when the request came with an allowed alias (images and 3D, HTTP and TLS)", async () => {
    const headers = { host: `${ALIAS}:${port()}`, authorization: `Bearer ${gw.token}` };
    const image = await rawRequest(`${gw.url}/v1/images/generations`, {
      method: 'POST',
      headers,
      body: { prompt: 'a kite', size: '64x64', response_format: 'url' },
    });
    assert.equal(image.status, 200);
    const url: string = image.body.data[0].url;
    assert.ok(url.startsWith(`${gw.url}/v1/files/images/`), url);
    assert.equal((await fetch(url)).headers.get('content-type'), 'image/png');

    const task = await rawRequest(`${gw.url}/v1/3d/generations`, { method: 'POST', headers, body: { prompt: 'a teapot' } });
    assert.equal(task.status, 200);
    const read = await rawRequest(`${gw.url}/v1/3d/generations/${task.body.task_id}`, { headers });
    assert.equal(read.body.status, 'SUCCESS');
    assert.ok(read.body.files[0].url.startsWith(`${gw.url}/v1/3d/files/`), read.body.files[0].url);
    assert.equal((await fetch(read.body.files[0].url)).status, 200);

    const overTls = await rawRequest(`${tlsUrl}/v1/images/generations`, {
      method: 'POST',
      ca,
      headers: { ...headers, host: `localhost:${new URL(tlsUrl).port}` },
      body: { prompt: 'a kite', size: '64x64', response_format: 'url' },
    });
    assert.ok(overTls.body.data[0].url.startsWith(`${tlsUrl}/v1/files/images/`), overTls.body.data[0].url);
  });
});

describe('Host check: listen hosts', () => {
  test('a gateway listening on [::1] serves the openai SDK at http://[::1]:port', async () => {
    const gw = await startGateway({ host: '::1' });
    try {
      assert.match(gw.url, /^http:\/\/\[::1\]:\d+$/);
      const client = new OpenAI({ apiKey: gw.token, baseURL: `${gw.url}/v1` });
      assert.ok((await client.models.list()).data.length > 0);
      assert.equal((await rawRequest(`${gw.url}/healthz`, { headers: { host: 'evil.example' } })).status, 403);
    } finally {
      await gw.stop();
    }
  });

  test("a gateway listening on every interface answers to this machine's own addresses, not to other names", async () => {
    const gw = await startGateway({ host: '0.0.0.0' });
    try {
      const port = new URL(gw.url).port;
      const own = Object.values(os.networkInterfaces())
        .flat()
        .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
      if (own)
        assert.equal((await rawRequest(`http://127.0.0.1:${port}/healthz`, { headers: { host: `${own}:${port}` } })).status, 200, own);
      assert.equal((await rawRequest(`${gw.url}/healthz`)).status, 200, 'the printed URL (http://0.0.0.0:port) works too');
      assert.equal((await rawRequest(`http://127.0.0.1:${port}/healthz`, { headers: { host: `192.0.2.1:${port}` } })).status, 403);
      assert.equal((await rawRequest(`http://127.0.0.1:${port}/healthz`, { headers: { host: `evil.example:${port}` } })).status, 403);
    } finally {
      await gw.stop();
    }
  });

  test('--allowed-hosts and GATEHOUSE_ALLOWED_HOSTS list extra names, normalized; a URL or a port is a usage error', () => {
    const dir = tempDataDir();
    const base = ['--settings-file', 'off', '--data-dir', dir];
    assert.deepEqual(parseServeOptions(['--allowed-hosts', 'Box.LAN, [::1],192.168.1.20,box.lan', ...base], {}, dir).allowedHosts, [
      'box.lan',
      '::1',
      '192.168.1.20',
    ]);
    assert.deepEqual(parseServeOptions(base, { GATEHOUSE_ALLOWED_HOSTS: 'gatehouse.test' }, dir).allowedHosts, ['gatehouse.test']);
    assert.deepEqual(parseServeOptions(base, {}, dir).allowedHosts, []);
    for (const bad of ['http://box.lan', 'box.lan:8790', 'a b', '*.lan']) {
      assert.throws(
        () => parseServeOptions(['--allowed-hosts', bad, ...base], {}, dir),
        (error: unknown) => error instanceof UsageError && /--allowed-hosts takes host names/.test(error.message),
        bad,
      );
    }
  });
});

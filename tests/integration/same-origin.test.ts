// Integration tests of origin checks: the admin API and admin socket answer their own origin only (token or not), and realtime upgrades from browsers need a listed origin.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ADMIN_WS_PROTOCOL, ADMIN_WS_TOKEN_PREFIX } from '../../shared/admin-events.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { rawRequest, tryUpgrade } from '../helpers/raw-http.ts';

const LISTED = 'http://localhost:5173';

describe('same-origin admin API and socket; realtime origins', () => {
  let gw: TestGateway;
  let tlsUrl: string;
  let ca: string;
  const admin = (path: string, origin: string | undefined, init: { method?: string; body?: unknown } = {}) =>
    rawRequest(`${gw.url}/admin/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${gw.gateway.adminToken}`, ...(origin !== undefined && { origin }) },
    });
  const adminSocket = (base: string, headers: Record<string, string>) =>
    tryUpgrade(`${base.replace(/^http/, 'ws')}/admin/ws`, {
      headers,
      ca,
      protocols: [ADMIN_WS_PROTOCOL, `${ADMIN_WS_TOKEN_PREFIX}${gw.gateway.adminToken}`],
    });
  before(async () => {
    gw = await startGateway({ tlsPort: 0, corsOrigins: [LISTED] });
    tlsUrl = gw.gateway.context.runtime.tlsUrl!;
    ca = readFileSync(`${gw.dataDir}/tls/ca.pem`, 'utf8');
  });
  after(() => gw.stop());

  test('the admin API refuses a foreign Origin with 403 even with the admin token, and changes nothing', async () => {
    const port = new URL(gw.url).port;
    for (const origin of ['https://evil.example', `http://localhost:${Number(port) + 1}`, 'null', LISTED, `https://127.0.0.1:${port}`]) {
      const status = await admin('/status', origin);
      assert.equal(status.status, 403, origin);
      assert.match(status.body.error.message, /admin API/);
      const created = await admin('/tokens', origin, { method: 'POST', body: { account: 'intruder' } });
      assert.equal(created.status, 403, origin);
    }
    const accounts = (await admin('/status', undefined)).body.accounts;
    assert.deepEqual(accounts, ['local'], 'no account was created by a refused call');
    // The console's own origin (as the browser and the desktop window send it), and no Origin at all (curl), are served.
    assert.equal((await admin('/status', gw.url)).status, 200);
    assert.equal((await admin('/status', `http://localhost:${port}`)).status, 403, 'another name than the one dialled is another origin');
    assert.equal(
      (
        await rawRequest(`${gw.url}/admin/api/status`, {
          headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, authorization: `Bearer ${gw.gateway.adminToken}` },
        })
      ).status,
      200,
      'a page opened at http://localhost:port is its own origin',
    );
  });

  test('the admin socket refuses a foreign Origin with 403 before upgrading, even with the admin token; its own origin opens (ws and wss)', async () => {
    const foreign = await adminSocket(gw.url, { origin: 'https://evil.example' });
    assert.deepEqual(foreign.opened ? 'opened' : foreign.status, 403);
    const own = await adminSocket(gw.url, { origin: gw.url });
    assert.deepEqual(own, { opened: true, protocol: ADMIN_WS_PROTOCOL });
    const secure = await adminSocket(tlsUrl, { origin: tlsUrl });
    assert.deepEqual(secure, { opened: true, protocol: ADMIN_WS_PROTOCOL });
    const wrongScheme = await adminSocket(tlsUrl, { origin: tlsUrl.replace('https:', 'http:') });
    assert.deepEqual(wrongScheme.opened ? 'opened' : wrongScheme.status, 403);
  });

  test('a realtime upgrade from a browser origin not in --cors-origins is refused with 403; listed, own and no Origin open', async () => {
    const realtime = (origin?: string) =>
      tryUpgrade(`${gw.url.replace(/^http/, 'ws')}/v1/realtime`, {
        headers: { authorization: `Bearer ${gw.token}`, ...(origin && { origin }) },
      });
    const foreign = await realtime('https://evil.example');
    assert.equal(foreign.opened, false);
    assert.equal(!foreign.opened && foreign.status, 403);
    assert.match(!foreign.opened ? foreign.body.error.message : '', /CORS origins/);
    assert.equal((await realtime('null')).opened, false);
    assert.equal((await realtime(LISTED)).opened, true);
    assert.equal((await realtime(gw.url)).opened, true);
    assert.equal((await realtime()).opened, true, 'SDKs and Node clients send no Origin');
  });
});

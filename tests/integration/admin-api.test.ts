// Integration tests of the console's admin API and event socket: admin-token guard, portrait rules reused, tokens with reveal, live events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { ADMIN_WS_PATH, ADMIN_WS_PROTOCOL, ADMIN_WS_TOKEN_PREFIX, type AdminEvent } from '../../shared/admin-events.ts';
import type { SecretStore } from '../../electron/gateway/secrets/secret-store.ts';
import { request, startGateway, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';
import { portraitClient } from '../helpers/portrait.ts';

/** A secret store in memory, standing in for the keychain. */
function memoryStore(): SecretStore {
  const entries = new Map<string, string>();
  return {
    kind: 'keychain',
    description: 'test memory store',
    get: async (key) => entries.get(key) ?? null,
    set: async (key, value) => void entries.set(key, value),
    delete: async (key) => entries.delete(key),
  };
}

/** Opens the admin socket and collects its events. */
function openSocket(url: string, adminToken: string) {
  const events: AdminEvent[] = [];
  const waiters: Array<() => void> = [];
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${ADMIN_WS_PATH}`, [
    ADMIN_WS_PROTOCOL,
    `${ADMIN_WS_TOKEN_PREFIX}${adminToken}`,
  ]);
  socket.on('message', (data) => {
    events.push(JSON.parse(String(data)) as AdminEvent);
    for (const wake of waiters.splice(0)) wake();
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  /** Resolves with the first event that matches. */
  const next = async (match: (event: AdminEvent) => boolean): Promise<AdminEvent> => {
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { socket, opened, events, next };
}

describe('admin API', () => {
  let server: TestGateway;
  let admin: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;

  before(async () => {
    server = await startGateway({ simReviewMs: 50, refreshIntervalMs: 100, secrets: memoryStore() });
    const token = server.gateway.adminToken;
    admin = (method, path, body) => request(`${server.url}/admin/api${path}`, method, { token, ...(body !== undefined && { body }) });
  });
  after(() => server.stop());

  test('every route needs the admin token; an API token is not enough', async () => {
    const missing = await request(`${server.url}/admin/api/status`, 'GET');
    assert.equal(missing.status, 401);
    assert.match(missing.body.error.message, /admin token/);
    assert.equal((await request(`${server.url}/admin/api/status`, 'GET', { token: server.token })).status, 401);
    assert.equal((await request(`${server.url}/admin/api/tokens`, 'POST', { token: 'nope', body: { account: 'x' } })).status, 401);
    assert.equal(server.gateway.adminToken.length >= 40, true, 'the admin token is long and random');
  });

  test('an address from before its console secret was rotated gets a 401 that says so, not that the token changes at every start', async () => {
    const own = await startGateway({ secrets: memoryStore(), bookmarkableConsole: true });
    try {
      const old = own.gateway.adminToken;
      const rotated = await request(`${own.url}/admin/api/console-secret/rotate`, 'POST', { token: old });
      assert.equal(rotated.status, 200);
      const refused = await request(`${own.url}/admin/api/status`, 'GET', { token: old });
      assert.equal(refused.status, 401);
      assert.match(refused.body.error.message, /^Wrong admin token: .*earlier run of the gateway.*console secret was rotated/);
      assert.doesNotMatch(refused.body.error.message, /every start/);
      const fresh = new URL(rotated.body.consoleUrl).searchParams.get('admin_token')!;
      assert.equal((await request(`${own.url}/admin/api/status`, 'GET', { token: fresh })).status, 200);
    } finally {
      await own.stop();
    }
  });

  test('status reports the listener, settings, accounts and the next scan', async () => {
    const { status, body } = await admin('GET', '/status');
    assert.equal(status, 200);
    assert.equal(body.url, server.url);
    assert.equal(body.port, Number(new URL(server.url).port));
    assert.equal(body.dataDir, server.dataDir);
    assert.equal(body.refreshIntervalMs, 100);
    assert.deepEqual(body.accounts, ['local']);
    assert.equal(typeof body.nextScanAt, 'number');
    assert.equal(body.secrets.kind, 'keychain');
  });

  test('groups and assets on behalf of an account follow the portrait rules and show in the portrait API', async () => {
    const group = await admin('POST', '/accounts/local/groups', { name: '  Faces  ', description: 'ads' });
    assert.equal(group.status, 200);
    assert.equal(group.body.name, 'Faces');
    const blank = await admin('POST', '/accounts/local/groups', { name: ' ' });
    assert.equal(blank.status, 400);
    assert.deepEqual([blank.body.error.message, blank.body.error.param], ['Group name must not be empty', 'name']);
    const renamed = await admin('PUT', `/accounts/local/groups/${group.body.group_id}`, { name: 'Faces 2' });
    assert.equal(renamed.body.name, 'Faces 2');

    const badUrl = await admin('POST', '/accounts/local/assets', {
      group_id: group.body.group_id,
      url: 'http://x.test/a.png',
      asset_type: 'Image',
    });
    assert.deepEqual([badUrl.status, badUrl.body.error.param], [400, 'url']);
    const asset = await admin('POST', '/accounts/local/assets', {
      group_id: group.body.group_id,
      url: 'https://cdn.example.com/anna.png',
      asset_type: 'Image',
      name: 'Anna',
    });
    assert.equal(asset.status, 200);
    assert.equal(asset.body.status, 'Submitted');

    const seen = await portraitClient(server.url, server.token).getAsset(asset.body.asset_id);
    assert.equal(seen.body.data.name, 'Anna', 'the portrait API sees what the console registered');
    const listed = await admin('GET', `/accounts/local/assets?group_id=${group.body.group_id}&page_size=5`);
    assert.equal(listed.body.total, 1);
    assert.equal(listed.body.page_size, 5);
    const badFilter = await admin('GET', '/accounts/local/assets?status=Done');
    assert.equal(badFilter.body.error.param, 'status');
    const unknown = await admin('GET', '/accounts/nobody/groups');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /Unknown account "nobody"/);
  });

  test('refresh now asks the reviewer and stores the verdict', async () => {
    const group = (await admin('POST', '/accounts/local/groups', { name: 'refresh' })).body;
    const asset = (
      await admin('POST', '/accounts/local/assets', {
        group_id: group.group_id,
        url: 'https://cdn.example.com/reject-me.png',
        asset_type: 'Image',
      })
    ).body;
    let current = asset;
    while (current.status !== 'Failed') current = (await admin('POST', `/accounts/local/assets/${asset.asset_id}/refresh`)).body;
    assert.match(current.failure_reason, /^review rejected/);
    const missing = await admin('POST', '/accounts/local/assets/ast_nope/refresh');
    assert.equal(missing.status, 404);
  });

  test('tokens: created with the secret once, revealable from the store, revoked for good', async () => {
    const created = await admin('POST', '/tokens', { account: 'ci-bot', name: 'ci', quota: 2.5 });
    assert.equal(created.status, 200);
    const { secret, token } = created.body;
    assert.match(secret, /^sk-gh-/);
    assert.deepEqual([token.account, token.name, token.quota, token.revealable], ['ci-bot', 'ci', 2.5, true]);
    const listed = await admin('GET', '/tokens?account=ci-bot');
    assert.equal(listed.body.length, 1);
    assert.equal(JSON.stringify(listed.body).includes(secret), false, 'lists never carry secrets');
    assert.equal((await admin('POST', `/tokens/${token.token_id}/reveal`)).body.secret, secret);
    assert.equal((await portraitClient(server.url, secret).listGroups()).status, 200, 'the new token works');

    const past = await admin('POST', '/tokens', { account: 'ci-bot', expires_at: Date.now() - 1000 });
    assert.equal(past.body.error.param, 'expires_at');

    const revoked = await admin('POST', `/tokens/${token.token_id}/revoke`);
    assert.equal(typeof revoked.body.revoked_at, 'number');
    assert.equal(revoked.body.revealable, false);
    assert.equal((await portraitClient(server.url, secret).listGroups()).status, 403);
    assert.equal((await admin('POST', `/tokens/${token.token_id}/reveal`)).status, 404);
    assert.deepEqual((await admin('GET', '/status')).body.accounts, ['ci-bot', 'local']);
  });

  test('the event socket pushes asset changes and finished scans; a wrong token is refused', async () => {
    const live = openSocket(server.url, server.gateway.adminToken);
    await live.opened;
    assert.equal(live.socket.protocol, ADMIN_WS_PROTOCOL);
    await live.next((event) => event.type === 'hello');
    const group = (await admin('POST', '/accounts/local/groups', { name: 'live' })).body;
    const asset = (
      await admin('POST', '/accounts/local/assets', {
        group_id: group.group_id,
        url: 'https://cdn.example.com/live.png',
        asset_type: 'Image',
      })
    ).body;
    const active = await live.next(
      (event) => event.type === 'asset.changed' && event.asset.asset_id === asset.asset_id && event.asset.status === 'Active',
    );
    assert.equal(active.type === 'asset.changed' && active.account, 'local');
    const scan = await live.next((event) => event.type === 'scan.finished');
    assert.equal(scan.type === 'scan.finished' && typeof scan.nextScanAt, 'number');
    live.socket.close();

    const refused = openSocket(server.url, 'wrong');
    await assert.rejects(refused.opened, /401/);
  });
});

// Integration tests of the admin API's channel routes: add, edit, enable/disable, test against a second gateway, remove; the key never comes back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChannelSummary } from '../../shared/channels.ts';
import { noSecretStore, type SecretStore } from '../../electron/gateway/secrets/secret-store.ts';
import { request, startGateway, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';

/** A secret store in memory, standing in for the keychain. */
function memoryStore(): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    kind: 'keychain',
    description: 'test memory store',
    entries,
    get: async (key) => entries.get(key) ?? null,
    set: async (key, value) => void entries.set(key, value),
    delete: async (key) => entries.delete(key),
  };
}

describe('admin API: channels', () => {
  let server: TestGateway;
  let upstream: TestGateway;
  let store: ReturnType<typeof memoryStore>;
  let admin: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;

  before(async () => {
    store = memoryStore();
    server = await startGateway({ secrets: store });
    upstream = await startGateway();
    const token = server.gateway.adminToken;
    admin = (method, path, body) => request(`${server.url}/admin/api${path}`, method, { token, ...(body !== undefined && { body }) });
  });
  after(async () => {
    await server.stop();
    await upstream.stop();
  });

  test('a channel added with a key is listed with its hint only; the key is in the secret store', async () => {
    const created = await admin('POST', '/channels', {
      name: 'up',
      kind: 'openai',
      base_url: `${upstream.url}/v1`,
      models: 'gpt-local=sim-chat',
      headers: { 'X-Tenant': 'acme' },
      key: upstream.token,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const channel = created.body as ChannelSummary;
    assert.equal(channel.key_hint, `${upstream.token.slice(0, 3)}…${upstream.token.slice(-4)}`);
    assert.equal(store.entries.get(`channel:${channel.id}`), upstream.token);
    const listed = await admin('GET', '/channels');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body as ChannelSummary[]).map((item) => item.name),
      ['up'],
    );
    assert.ok(!JSON.stringify(listed.body).includes(upstream.token), 'the key is never sent back');
    assert.ok(!JSON.stringify(created.body).includes(upstream.token));
    // The running gateway's directory sees it on the next call.
    assert.deepEqual(server.gateway.context.channels.kindsServing('gpt-local'), ['openai']);
  });

  test('bad fields are 400s naming the field; an unknown channel is a 404', async () => {
    const bad = await admin('POST', '/channels', { name: 'x', kind: 'openai', base_url: 'http://example.com/v1' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'base_url');
    const twice = await admin('POST', '/channels', { name: 'UP', kind: 'openai', base_url: 'https://example.com/v1' });
    assert.equal(twice.status, 400);
    assert.match(twice.body.error.message, /already exists/);
    const typed = await admin('POST', '/channels', { name: 'x', kind: 'openai', base_url: 'https://example.com', priority: '1' });
    assert.equal(typed.body.error.param, 'priority');
    assert.equal((await admin('PUT', '/channels/ch_nothing', { priority: 1 })).status, 404);
    assert.equal((await admin('POST', '/channels/up/remove')).status, 404, 'the admin API names channels by id');
  });

  test('test calls the upstream (renamed model too) and records latency; disable and edit; remove drops the key', async () => {
    const [channel] = (await admin('GET', '/channels')).body as ChannelSummary[];
    const listing = await admin('POST', `/channels/${channel!.id}/test`, {});
    assert.equal(listing.status, 200);
    assert.equal(listing.body.ok, true, JSON.stringify(listing.body));
    const chat = await admin('POST', `/channels/${channel!.id}/test`, { model: 'gpt-local' });
    assert.equal(chat.body.ok, true, JSON.stringify(chat.body));
    const healthy = ((await admin('GET', '/channels')).body as ChannelSummary[])[0]!;
    assert.equal(typeof healthy.health.last_latency_ms, 'number');
    assert.notEqual(healthy.health.last_ok_at, null);

    const wrongKey = await admin('PUT', `/channels/${channel!.id}`, { key: 'sk-gh-not-a-real-token-0000' });
    assert.equal(wrongKey.body.key_hint, 'sk-…0000');
    const refused = await admin('POST', `/channels/${channel!.id}/test`, {});
    assert.equal(refused.body.ok, false);
    assert.match(refused.body.message, /^HTTP 401: /);
    assert.ok(!refused.body.message.includes('sk-gh-not-a-real-token-0000'));
    assert.equal(((await admin('GET', '/channels')).body as ChannelSummary[])[0]!.health.consecutive_failures, 1);

    const disabled = await admin('PUT', `/channels/${channel!.id}`, { enabled: false, priority: 3 });
    assert.equal(disabled.body.enabled, false);
    assert.equal(disabled.body.priority, 3);
    assert.deepEqual(server.gateway.context.channels.kindsServing('gpt-local'), []);

    const removed = await admin('POST', `/channels/${channel!.id}/remove`);
    assert.equal(removed.status, 200);
    assert.deepEqual(
      [...store.entries.keys()].filter((key) => key.startsWith('channel:')),
      [],
      'the key left the secret store',
    );
    assert.deepEqual((await admin('GET', '/channels')).body, []);
  });
});

test('a gateway run with --secrets none refuses a keyed channel and says which --secrets to use', async () => {
  const server = await startGateway({ secrets: noSecretStore });
  try {
    const admin = (body: unknown) => request(`${server.url}/admin/api/channels`, 'POST', { token: server.gateway.adminToken, body });
    const keyed = await admin({ name: 'k', kind: 'anthropic', base_url: 'https://api.anthropic.com', key: 'sk-ant-123456789' });
    assert.equal(keyed.status, 400);
    assert.match(keyed.body.error.message, /--secrets keychain/);
    const local = await admin({ name: 'ollama', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1' });
    assert.equal(local.status, 200);
    assert.equal(local.body.key_hint, null);
  } finally {
    await server.stop();
  }
});

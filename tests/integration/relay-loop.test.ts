// Integration tests of a relay loop: a channel whose base URL is the gateway's own /v1 address ends in a 508 naming the cause, for a client and for the channel's Test, and the gateway keeps answering.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { ChannelSummary, ChannelTestResult } from '../../shared/channels.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { MAX_RELAY_HOPS } from '../../electron/gateway/providers/relay/hops.ts';
import { request, startGateway, tempDirs, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';
import { openRaw } from '../helpers/realtime.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

describe('a channel that points back at its own gateway', () => {
  let server: TestGateway;
  let upstream: TestGateway;
  let admin: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
  let channel: ChannelSummary;

  before(async () => {
    const dataDir = dirs.fresh();
    server = await startGateway({ dataDir, secrets: openFileStore(dataDir) });
    upstream = await startGateway();
    const token = server.gateway.adminToken;
    admin = (method, path, body) => request(`${server.url}/admin/api${path}`, method, { token, ...(body !== undefined && { body }) });
    // The mistake: the gateway's own base URL (as GET / and the Overview show it) and its own token as a channel.
    const created = await admin('POST', '/channels', {
      name: 'self',
      kind: 'openai',
      base_url: `${server.url}/v1`,
      models: 'sim-chat, sim-realtime',
      key: server.token,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    channel = created.body as ChannelSummary;
  });
  after(async () => {
    await server.stop();
    await upstream.stop();
  });

  test('a client gets a 508 that names the loop and the fix, and the gateway still answers other calls', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0, timeout: 60_000 });
    const failure = await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'loop?' }] }).then(
      () => assert.fail('a looping call must not succeed'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof OpenAI.APIError, String(failure));
    assert.equal(failure.status, 508);
    assert.match(failure.message, new RegExp(`relay loop.*${MAX_RELAY_HOPS} Gatehouse relays.*base URL`));
    assert.equal(failure.headers?.get('x-should-retry'), 'false', 'no client retries it');
    const echo = await openai.chat.completions.create({ model: 'sim-echo', messages: [{ role: 'user', content: 'still here' }] });
    assert.equal(echo.choices[0]!.message.content, 'still here');
  });

  test('a realtime session on the looping channel gets an error event naming the loop, and is closed', async () => {
    const socket = await openRaw(`${server.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    const error = await socket.next('error');
    assert.match(error.error.message, /relay loop/);
    await socket.closing;
  });

  test('the channel’s Test fails with the loop named instead of hanging', async () => {
    const tested = await admin('POST', `/channels/${channel.id}/test`, { model: 'sim-chat' });
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    const result = tested.body as ChannelTestResult;
    assert.equal(result.ok, false);
    assert.match(result.message, /508.*relay loop/);
  });

  test('a chain of two different gateways still relays: the hop count only stops a loop', async () => {
    const created = await admin('POST', '/channels', {
      name: 'second',
      kind: 'openai',
      base_url: `${upstream.url}/v1`,
      models: 'chained=sim-echo',
      key: upstream.token,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'chained', messages: [{ role: 'user', content: 'two gateways' }] });
    assert.equal(answer.choices[0]!.message.content, 'two gateways');
  });
});

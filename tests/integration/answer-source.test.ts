// Every answer names its source in `x-gatehouse-source` (simulate, relay;channel=NAME, fixture), streams and errors included, as the journal records it; a fixture answers an unrouted model.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { chatAnswers, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { settle } from '../helpers/relay.ts';

describe('x-gatehouse-source', () => {
  let upstream: HostileUpstream;
  let gw: TestGateway;
  const admin = (method: string, route: string, body?: unknown) =>
    request(`${gw.url}/admin/api${route}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });

  before(async () => {
    // The upstream answers `gpt-real` and refuses `gpt-broken` with a 500.
    upstream = await hostileUpstream(chatAnswers());
    gw = await startGateway();
    const added = await admin('POST', '/channels', {
      name: 'real',
      kind: 'openai',
      base_url: `${upstream.url}/v1`,
      models: 'gpt-real,gpt-broken',
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const fixture = { match: { userMessage: 'scripted' }, response: { content: 'from a fixture' } };
    assert.equal((await admin('POST', '/fixtures', { fixtures: [fixture] })).status, 200);
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  const chat = (model: string, content = 'hello') =>
    new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 }).chat.completions
      .create({ model, messages: [{ role: 'user', content }] })
      .withResponse();

  test('simulate, relay;channel=NAME and fixture answers say so, as the journal does', async () => {
    assert.equal((await chat('sim-chat')).response.headers.get('x-gatehouse-source'), 'simulate');
    const relayed = await chat('gpt-real');
    assert.equal(relayed.data.choices[0]!.message.content, 'relayed');
    assert.equal(relayed.response.headers.get('x-gatehouse-source'), 'relay;channel=real');
    // A fixture answers first, even for a model no channel serves.
    const scripted = await chat('gpt-unrouted', 'scripted please');
    assert.equal(scripted.data.choices[0]!.message.content, 'from a fixture');
    assert.equal(scripted.response.headers.get('x-gatehouse-source'), 'fixture');
    await settle();
    const page = await admin('GET', '/journal?page_size=10');
    const sources = (page.body.items as { model: string; source: string }[]).map((entry) => [entry.model, entry.source]);
    assert.deepEqual(sources.slice(0, 3), [
      ['gpt-unrouted', 'fixture'],
      ['gpt-real', 'relay'],
      ['sim-chat', 'simulate'],
    ]);
  });

  test('a stream and a relayed error carry it too', async () => {
    const stream = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.match(stream.headers.get('content-type') ?? '', /event-stream/);
    assert.equal(stream.headers.get('x-gatehouse-source'), 'simulate');
    await stream.text();
    const failed = await request(`${gw.url}/v1/chat/completions`, 'POST', {
      token: gw.token,
      body: { model: 'gpt-broken', messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.equal(failed.status, 500);
    assert.equal(failed.headers.get('x-gatehouse-source'), 'relay;channel=real');
  });
});

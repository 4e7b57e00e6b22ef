// Integration tests of a kept simulated answer streamed as the bytes rendered once: over HTTP the client gets what the frame-by-frame path sends, the same charge, and a journal entry that reads back as received.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

const user = (content: string) => [{ role: 'user', content }];
const WEATHER = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/** Bodies whose streams differ in every way the bytes can. */
const VARIANTS: Record<string, Record<string, unknown>> = {
  plain: { model: 'sim-chat', messages: user('Describe a harbour at dawn.') },
  'include_usage and n=2': { model: 'sim-chat', messages: user('Name a fruit.'), n: 2, stream_options: { include_usage: true } },
  'tool calls': {
    model: 'sim-chat',
    messages: user('Weather in Oslo?'),
    tools: [{ type: 'function', function: WEATHER }],
    tool_choice: 'required',
  },
  'legacy functions': {
    model: 'sim-chat',
    messages: user('Weather in Oslo?'),
    functions: [WEATHER],
    function_call: { name: 'get_weather' },
  },
  'non-ASCII text': { model: 'sim-echo', messages: user('Grüße aus Zürich: 東京の灯台 🌊, «ñandú».') },
};

/** The identity a call's chunks carry (its own id and time), written the same for every call so two calls compare. */
const sameIdentity = (text: string) => text.replace(/"id":"chatcmpl_[^"]*"/g, '"id":"ID"').replace(/"created":\d+/g, '"created":0');

describe('a kept simulated answer streamed whole', () => {
  let server: TestGateway;
  before(async () => {
    server = await startGateway();
  });
  after(() => server.stop());

  const post = async (body: Record<string, unknown>, paced: boolean, path = '/v1/chat/completions') => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        // Paced, the answer is written frame by frame as it is produced (a pace this fast barely waits).
        ...(paced && { 'x-gatehouse-pace': '100000' }),
      },
      // Gemini's body has no `stream` (its path says it); the others ask for it.
      body: JSON.stringify(path.includes(':streamGenerateContent') ? body : { ...body, stream: true }),
    });
    assert.equal(response.status, 200);
    return { type: response.headers.get('content-type'), text: await response.text() };
  };
  const charges = (endpoint = '/v1/chat/completions') =>
    server.gateway.context.db
      .prepare('SELECT input_tokens, output_tokens FROM usage_records WHERE endpoint = ? ORDER BY id')
      .all(endpoint) as { input_tokens: number; output_tokens: number }[];
  const admin = (path: string) => request(`${server.url}/admin/api${path}`, 'GET', { token: server.gateway.adminToken });

  test('the client gets the bytes, the charge and the journal entry of the frame-by-frame path, for every variant', async () => {
    for (const [name, body] of Object.entries(VARIANTS)) {
      const before = charges().length;
      const paced = await post(body, true);
      const kept = [await post(body, false), await post(body, false)];
      for (const answer of kept) {
        assert.equal(answer.type, paced.type, `${name}: the same content type`);
        assert.equal(sameIdentity(answer.text), sameIdentity(paced.text), `${name}: the same stream but for its id and time`);
        assert.notEqual(answer.text, paced.text, `${name}: each call has its own id`);
      }
      const charged = charges().slice(before);
      assert.equal(charged.length, 3, `${name}: each call charged once`);
      assert.deepEqual(charged[1], charged[0], `${name}: the same charge`);
      assert.deepEqual(charged[2], charged[0], `${name}: the same charge`);
      // The journal keeps each answer as the client received it (the kept stream's bytes moved to its thread whole).
      const items = await eventually(async () => {
        const list = (await admin('/journal?path=/v1/chat/completions&limit=3')).body.items as { id: number }[];
        return list.length >= 3 && list;
      }, `${name}: the three calls are journaled`);
      const received = [kept[1]!.text, kept[0]!.text, paced.text];
      for (const [index, item] of items.slice(0, 3).entries()) {
        const entry = (await admin(`/journal/${item.id}`)).body;
        assert.equal(entry.response.text, received[index], `${name}: entry ${index} reads back as received`);
        assert.equal(entry.response.bytes, Buffer.byteLength(received[index]!));
      }
    }
  });

  test("Gemini's alt=sse and legacy completions streams of a kept answer are the frame-by-frame bytes but for their identity, with the same charge and a journal entry as received", async () => {
    const calls = [
      {
        path: '/v1beta/models/sim-chat:streamGenerateContent?alt=sse',
        endpoint: '/v1beta/models:streamGenerateContent',
        body: { contents: [{ role: 'user', parts: [{ text: 'Describe a harbour at dawn.' }] }] },
        same: (text: string) => text.replace(/"responseId":"[^"]*"/g, '"responseId":"ID"'),
      },
      {
        path: '/v1beta/models/sim-echo:streamGenerateContent?alt=sse',
        endpoint: '/v1beta/models:streamGenerateContent',
        body: { contents: [{ parts: [{ text: 'Grüße aus Zürich: 東京の灯台 🌊.' }] }] },
        same: (text: string) => text.replace(/"responseId":"[^"]*"/g, '"responseId":"ID"'),
      },
      ...[false, true].map((usage) => ({
        path: '/v1/completions',
        endpoint: '/v1/completions',
        body: {
          model: 'sim-chat',
          prompt: 'Describe a harbour at dawn.',
          max_tokens: 80,
          ...(usage && { stream_options: { include_usage: true } }),
        },
        same: (text: string) => text.replace(/"id":"cmpl_[^"]*"/g, '"id":"ID"').replace(/"created":\d+/g, '"created":0'),
      })),
    ];
    for (const { path, endpoint, body, same } of calls) {
      const name = `${path} ${JSON.stringify(body).slice(0, 80)}`;
      const before = charges(endpoint).length;
      const journaled = async () =>
        (await admin(`/journal?path=${encodeURIComponent(path.split('?')[0]!)}`)).body.items as { id: number }[];
      const lastBefore = (await journaled())[0]?.id ?? 0;
      const paced = await post(body, true, path);
      const kept = [await post(body, false, path), await post(body, false, path)];
      for (const answer of kept) {
        assert.equal(answer.type, paced.type, `${name}: the same content type`);
        assert.equal(same(answer.text), same(paced.text), `${name}: the same stream but for its identity`);
        assert.notEqual(answer.text, paced.text, `${name}: each call has its own identity`);
      }
      const charged = charges(endpoint).slice(before);
      assert.equal(charged.length, 3, `${name}: each call charged once`);
      assert.ok(charged[0]!.output_tokens > 0);
      assert.deepEqual(charged[1], charged[0], `${name}: the same charge`);
      assert.deepEqual(charged[2], charged[0], `${name}: the same charge`);
      const items = await eventually(async () => {
        const list = (await journaled()).filter((item) => item.id > lastBefore);
        return list.length === 3 && list;
      }, `${name}: the three calls are journaled`);
      const received = [kept[1]!.text, kept[0]!.text, paced.text];
      for (const [index, item] of items.slice(0, 3).entries()) {
        const entry = (await admin(`/journal/${item.id}`)).body;
        assert.equal(entry.response.text, received[index], `${name}: entry ${index} reads back as received`);
      }
    }
  });

  test('an Anthropic Messages stream of a kept answer is the frame-by-frame bytes but for its own message id, with the same charge and a journal entry as received', async () => {
    const bodies = [
      { model: 'sim-chat', max_tokens: 300, messages: user('Describe a harbour at dawn.') },
      { model: 'sim-echo', max_tokens: 300, messages: user('Grüße aus Zürich: 東京の灯台 🌊.') },
    ];
    for (const body of bodies) {
      const before = charges('/v1/messages').length;
      const journaled = async () => (await admin('/journal?path=/v1/messages')).body.items as { id: number }[];
      const lastBefore = (await journaled())[0]?.id ?? 0;
      const paced = await post(body, true, '/v1/messages');
      const kept = [await post(body, false, '/v1/messages'), await post(body, false, '/v1/messages')];
      const sameId = (text: string) => text.replace(/"id":"msg_[^"]*"/, '"id":"ID"');
      for (const answer of kept) {
        assert.match(answer.text, /^event: message_start\n/);
        assert.equal(sameId(answer.text), sameId(paced.text), `${body.model}: the same stream`);
        assert.notEqual(answer.text, paced.text, `${body.model}: each message has its own id`);
      }
      const charged = charges('/v1/messages').slice(before);
      assert.equal(charged.length, 3, `${body.model}: each call charged once`);
      assert.ok(charged[0]!.output_tokens > 0);
      assert.deepEqual(charged[1], charged[0], `${body.model}: the same charge`);
      assert.deepEqual(charged[2], charged[0], `${body.model}: the same charge`);
      const items = await eventually(async () => {
        const list = (await journaled()).filter((item) => item.id > lastBefore);
        return list.length === 3 && list;
      }, `${body.model}: the three calls are journaled`);
      const received = [kept[1]!.text, kept[0]!.text, paced.text];
      for (const [index, item] of items.slice(0, 3).entries()) {
        const entry = (await admin(`/journal/${item.id}`)).body;
        assert.equal(entry.response.text, received[index], `${body.model}: entry ${index} reads back as received`);
        assert.equal(entry.response.bytes, Buffer.byteLength(received[index]!));
      }
    }
  });
});

// Integration tests of a kept simulated answer streamed as the bytes rendered once: over HTTP the client gets what the frame-by-frame path sends, the same charge, and a journal entry that reads back as received.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { geminiCodec } from '../../electron/gateway/protocols/gemini/inbound/codec.ts';
import { openaiCompletionsCodec } from '../../electron/gateway/protocols/openai/inbound/completions-codec.ts';

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
    for (const body of Object.values(VARIANTS)) {
      await keptLikePaced({ path: '/v1/chat/completions', endpoint: '/v1/chat/completions', body, same: sameIdentity });
    }
  });

  /**
   * Asks `body` once paced (frame by frame) and twice not (the kept answer's render), and checks what a client and the
   * owner see: the same bytes but for the call's identity (`same` writes it alike), the same charge, and each journal
   * entry as received.
   */
  const keptLikePaced = async (call: { path: string; endpoint: string; body: Record<string, unknown>; same: (text: string) => string }) => {
    const { path, endpoint, body, same } = call;
    const name = `${path} ${JSON.stringify(body).slice(0, 80)}`;
    const before = charges(endpoint).length;
    const journaled = async () => (await admin(`/journal?path=${encodeURIComponent(path.split('?')[0]!)}`)).body.items as { id: number }[];
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
      assert.equal(entry.response.bytes, Buffer.byteLength(received[index]!));
    }
    return kept;
  };

  test("Gemini's alt=sse and legacy completions streams of a kept answer are the frame-by-frame bytes but for their identity, with the same charge and a journal entry as received", async (t) => {
    // The bytes are the same either way: the codecs' kept renders are watched to show the routes write them.
    const geminiKept = t.mock.method(geminiCodec, 'streamKept');
    const completionsKept = t.mock.method(openaiCompletionsCodec, 'streamKept');
    const rendered = (spy: { mock: { calls: readonly { result?: unknown }[] } }) =>
      spy.mock.calls.filter((call) => call.result !== undefined).length;
    const gemini = (model: string, text: string) => ({
      path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
      endpoint: '/v1beta/models:streamGenerateContent',
      body: { contents: [{ role: 'user', parts: [{ text }] }] },
      same: (text: string) => text.replace(/"responseId":"[^"]*"/g, '"responseId":"ID"'),
    });
    for (const call of [gemini('sim-chat', 'Describe a harbour at dawn.'), gemini('sim-echo', 'Grüße aus Zürich: 東京の灯台 🌊.')]) {
      const before = rendered(geminiKept);
      await keptLikePaced(call);
      assert.equal(rendered(geminiKept) - before, 2, `${call.path}: both unpaced calls written as the kept render`);
    }
    for (const usage of [false, true]) {
      const before = rendered(completionsKept);
      await keptLikePaced({
        path: '/v1/completions',
        endpoint: '/v1/completions',
        body: {
          model: 'sim-chat',
          prompt: 'Describe a harbour at dawn.',
          max_tokens: 80,
          ...(usage && { stream_options: { include_usage: true } }),
        },
        same: (text: string) => text.replace(/"id":"cmpl_[^"]*"/g, '"id":"ID"').replace(/"created":\d+/g, '"created":0'),
      });
      assert.equal(rendered(completionsKept) - before, 2, `completions (usage ${usage}): both unpaced calls written as the kept render`);
    }
  });

  test('an Anthropic Messages stream of a kept answer is the frame-by-frame bytes but for its own message id, with the same charge and a journal entry as received', async () => {
    const bodies = [
      { model: 'sim-chat', max_tokens: 300, messages: user('Describe a harbour at dawn.') },
      { model: 'sim-echo', max_tokens: 300, messages: user('Grüße aus Zürich: 東京の灯台 🌊.') },
    ];
    for (const body of bodies) {
      const same = (text: string) => text.replace(/"id":"msg_[^"]*"/, '"id":"ID"');
      const kept = await keptLikePaced({ path: '/v1/messages', endpoint: '/v1/messages', body, same });
      for (const answer of kept) assert.match(answer.text, /^event: message_start\n/);
    }
  });
});

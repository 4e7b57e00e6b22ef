// Integration tests: what a relayed answer may carry to the caller: never sniffed or run by a browser, never a status outside HTTP's, decoded when an upstream encodes it anyway, whole when it is too deep to rename.
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ChannelKind } from '../../electron/gateway/providers/types.ts';
import type { Protocol } from '../../electron/gateway/server/protocol.ts';
import type { TestGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, type HostileHandler, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { assertErrorEnvelope } from '../helpers/protocol-errors.ts';
import { usageRows } from '../helpers/relay.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

const CSP = "default-src 'none'; sandbox";

/** A chat completion as an upstream answers it, for `model`. */
const completion = (model: string) => chatCompletion(model, 'hello from upstream', { created: 1_790_000_000, tokens: [7, 3] });

/** A chat completion stream as an upstream sends it. */
const completionStream = (model: string) =>
  ['hello', ' from', ' upstream']
    .map(
      (text) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: text } }] })}\n\n`,
    )
    .join('') + 'data: [DONE]\n\n';

/** Writes a raw HTTP/1.1 answer with `statusLine` (any status at all) and a JSON body, then closes the connection. */
const rawStatus =
  (statusLine: string): HostileHandler =>
  (_, __, raw) => {
    raw.socket.end(`${statusLine}\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`);
  };

/** Where each kind's chat call goes on the gateway, and its body. */
const CALLS: Record<ChannelKind, { protocol: Protocol; path: string; body: unknown; headers?: Record<string, string> }> = {
  openai: { protocol: 'openai', path: '/v1/chat/completions', body: { model: 'my-model', messages: [{ role: 'user', content: 'hi' }] } },
  anthropic: {
    protocol: 'anthropic',
    path: '/v1/messages',
    body: { model: 'my-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
    headers: { 'anthropic-version': '2023-06-01' },
  },
  gemini: {
    protocol: 'gemini',
    path: '/v1beta/models/my-model:generateContent',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
} as Record<ChannelKind, { protocol: Protocol; path: string; body: unknown; headers?: Record<string, string> }>;

describe('relayed answer hygiene', () => {
  const opened: { upstream: HostileUpstream; gw: TestGateway }[] = [];
  /** An upstream answering with `handler` and a gateway with one channel of `kind` to it, serving `my-model` as `up-model`. */
  const relayTo = async (kind: ChannelKind, handler: HostileHandler) => {
    const upstream = await hostileUpstream(handler);
    const gw = await gatewayBefore(upstream, kind, undefined, { models: ['my-model=up-model'] });
    opened.push({ upstream, gw });
    return { upstream, gw };
  };
  const call = (gw: TestGateway, kind: ChannelKind, path = CALLS[kind].path) =>
    fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json', ...CALLS[kind].headers },
      body: JSON.stringify(CALLS[kind].body),
    });
  after(async () => {
    for (const { upstream, gw } of opened) {
      await gw.stop();
      await upstream.close();
    }
  });

  test('every relayed answer says nosniff and a sandboxing CSP: an HTML page is passed as bytes a browser will not run; SDK clients read JSON and SSE as before', async () => {
    const page = '<html><script>fetch("/admin/api/tokens")</script></html>';
    const { upstream, gw } = await relayTo('openai', (request, response) => {
      const asked = JSON.parse(request.body.toString('utf8'));
      if (asked.messages[0].content === 'html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(page);
      if (asked.messages[0].content === 'refused') return void response.writeHead(400, { 'content-type': 'text/html' }).end(page);
      if (asked.stream) return void response.writeHead(200, { 'content-type': 'text/event-stream' }).end(completionStream('up-model'));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('up-model')));
    });
    for (const content of ['html', 'refused']) {
      const answer = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'my-model', messages: [{ role: 'user', content }] }),
      });
      assert.equal(answer.headers.get('content-type'), 'text/html', content);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', content);
      assert.equal(answer.headers.get('content-security-policy'), CSP, content);
      assert.equal(await answer.text(), page, content);
    }

    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const { data, response } = await openai.chat.completions
      .create({ model: 'my-model', messages: [{ role: 'user', content: 'json' }] })
      .withResponse();
    assert.equal(response.headers.get('content-security-policy'), CSP);
    assert.equal(data.choices[0]!.message.content, 'hello from upstream');
    assert.equal(data.model, 'my-model');
    const stream = await openai.chat.completions
      .create({ model: 'my-model', messages: [{ role: 'user', content: 'sse' }], stream: true })
      .withResponse();
    assert.equal(stream.response.headers.get('x-content-type-options'), 'nosniff');
    let text = '';
    for await (const chunk of stream.data) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'hello from upstream');
    assert.equal(upstream.requests.length, 4);
  });

  test('a final status outside 200–599 is a 502 in the caller’s protocol, in every protocol', async () => {
    for (const kind of ['openai', 'anthropic', 'gemini'] as ChannelKind[]) {
      for (const statusLine of ['HTTP/1.1 600 Beyond', 'HTTP/1.1 999 Nonsense', 'HTTP/1.1 101 Switching Protocols']) {
        const { gw } = await relayTo(kind, rawStatus(statusLine));
        const answer = await call(gw, kind);
        const label = `${kind} ${statusLine}`;
        assert.equal(answer.status, 502, label);
        assertErrorEnvelope(CALLS[kind].protocol, answer.status, await answer.json(), label);
      }
    }
    // Through the SDKs, the refusal is an ordinary API error.
    const { gw } = await relayTo('anthropic', rawStatus('HTTP/1.1 700 Nope'));
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    const refused = await anthropic.messages
      .create({ model: 'my-model', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    assert.ok(refused instanceof Anthropic.APIError && refused.status === 502, String(refused));
  });

  test('an answer encoded although the gateway asked for identity is decoded (gzip, deflate, br) and billed; an unknown coding is a 502', async () => {
    const body = Buffer.from(JSON.stringify(completion('up-model')));
    const encoded: Record<string, Buffer> = { gzip: gzipSync(body), deflate: deflateSync(body), br: brotliCompressSync(body) };
    for (const coding of Object.keys(encoded)) {
      const { gw } = await relayTo('openai', (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(encoded[coding]);
      });
      const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
      const { data, response } = await openai.chat.completions
        .create({ model: 'my-model', messages: [{ role: 'user', content: 'hi' }] })
        .withResponse();
      assert.equal(response.headers.get('content-encoding'), null, coding);
      assert.equal(data.choices[0]!.message.content, 'hello from upstream', coding);
      assert.equal(data.model, 'my-model', `${coding}: renamed back`);
      assert.deepEqual(
        usageRows(gw).map((row) => [row.input_tokens, row.output_tokens]),
        [[7, 3]],
        `${coding}: billed by the decoded usage`,
      );
    }
    // A stream encoded anyway arrives event by event.
    const { gw: streaming } = await relayTo('openai', (_, response) => {
      response
        .writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' })
        .end(gzipSync(completionStream('up-model')));
    });
    const openai = new OpenAI({ baseURL: `${streaming.url}/v1`, apiKey: streaming.token, maxRetries: 0 });
    let text = '';
    for await (const chunk of await openai.chat.completions.create({
      model: 'my-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    assert.equal(text, 'hello from upstream');

    for (const coding of ['zstd', 'gzip, br']) {
      const { gw } = await relayTo('openai', (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(body);
      });
      const answer = await call(gw, 'openai');
      const refused = (await answer.json()) as { error: { message: string } };
      assert.equal(answer.status, 502, coding);
      assertErrorEnvelope('openai', answer.status, refused, coding);
      assert.match(refused.error.message, /content-encoding/, coding);
    }
  });

  test('a renamed answer too deep or too large to rename reaches the caller whole, as the upstream sent it', async () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const deepAnswer = `{"id":"chatcmpl-deep","object":"chat.completion","model":"up-model","choices":[],"extra":${deep(50_000)}}`;
    const { gw } = await relayTo(
      'openai',
      (_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(deepAnswer),
    );
    const answer = await call(gw, 'openai');
    assert.equal(answer.status, 200);
    assert.equal(await answer.text(), deepAnswer);

    // Gemini's JSON array stream is renamed element by element: a deep element passes as it came, the others renamed.
    const elements = [`{"candidates":[],"modelVersion":"up-model","extra":${deep(50_000)}}`, '{"candidates":[],"modelVersion":"up-model"}'];
    const { gw: gemini } = await relayTo(
      'gemini',
      (_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(`[${elements.join(',')}]`),
    );
    const streamed = await call(gemini, 'gemini', '/v1beta/models/my-model:streamGenerateContent');
    assert.equal(streamed.status, 200);
    assert.equal(await streamed.text(), `[${elements[0]},{"candidates":[],"modelVersion":"my-model"}]`);

    const large = JSON.stringify({ ...completion('up-model'), padding: 'x'.repeat(9 * 1024 * 1024) });
    const { gw: big } = await relayTo(
      'openai',
      (_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(large),
    );
    const whole = await call(big, 'openai');
    assert.equal(whole.status, 200);
    assert.equal(await whole.text(), large);
  });
});

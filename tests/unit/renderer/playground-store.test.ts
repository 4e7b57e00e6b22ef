// Unit tests of the playground: request shapes of the three formats, streamed text, stop mid-way, errors, raw exchange and curl.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildChatRequest, readAnswer, readStreamStep, toCurl } from '../../../renderer/src/api/chat-formats.ts';
import { readSse, type SseMessage } from '../../../renderer/src/api/sse.ts';
import { createPlaygroundStore } from '../../../renderer/src/stores/playground.ts';

/** A fetch whose streamed body the test feeds chunk by chunk; aborting the request errors the stream like a browser does. */
function streamingFetch(status = 200) {
  let push!: (text: string) => void;
  let end!: () => void;
  const requests: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    requests.push({ url, init });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        end = () => controller.close();
        init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetchImpl, requests, push: (text: string) => push(text), end: () => end() };
}

const openaiChunk = (text: string) => `data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`;

/** Waits until the store's state satisfies `done` (driven by the store's own updates, never by time). */
function until<T>(store: { getState(): T; subscribe(listener: (state: T) => void): () => void }, done: (state: T) => boolean) {
  return new Promise<void>((resolve) => {
    if (done(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (done(state)) {
        stop();
        resolve();
      }
    });
  });
}

describe('playground store', () => {
  test('streams an OpenAI reply into the conversation and keeps the raw exchange without the key', async () => {
    const wire = streamingFetch();
    const store = createPlaygroundStore({ apiBase: 'http://gw', fetch: wire.fetchImpl });
    store.getState().set({ model: 'gpt-4o-mini', system: 'Be brief.', input: 'Hello' });
    const sending = store.getState().send('sk-gh-abcdefghijklmnop');
    await until(store, (state) => state.streaming);
    wire.push(openaiChunk('Hi'));
    await until(store, (state) => state.output === 'Hi');
    wire.push(`${openaiChunk(' there')}data: [DONE]\n\n`);
    wire.end();
    await sending;
    const state = store.getState();
    assert.deepEqual(
      state.turns.map(({ role, text }) => ({ role, text })),
      [
        { role: 'user', text: 'Hello' },
        { role: 'assistant', text: 'Hi there' },
      ],
    );
    assert.equal(state.streaming, false);
    assert.equal(wire.requests[0]!.url, 'http://gw/v1/chat/completions');
    const body = JSON.parse(String(wire.requests[0]!.init.body));
    assert.deepEqual(body.messages[0], { role: 'system', content: 'Be brief.' });
    assert.equal(body.stream, true);
    assert.equal(state.lastRequest?.headers['authorization'], 'Bearer sk-gh-ab…', 'the shown request hides the key');
    assert.match(state.rawResponse, /data: \[DONE\]/);
  });

  test('stop ends the reply mid-way and keeps what arrived', async () => {
    const wire = streamingFetch();
    const store = createPlaygroundStore({ apiBase: '', fetch: wire.fetchImpl });
    store.getState().set({ model: 'm', input: 'Tell a long story' });
    const sending = store.getState().send('key');
    await until(store, (state) => state.streaming);
    wire.push(openaiChunk('Once upon'));
    await until(store, (state) => state.output === 'Once upon');
    store.getState().stop();
    await sending;
    const state = store.getState();
    assert.equal(state.stopped, true);
    assert.equal(state.error, null, 'stopping is not an error');
    assert.deepEqual({ ...state.turns.at(-1)!, stats: undefined }, { role: 'assistant', text: 'Once upon', stats: undefined });
  });

  test('a streamed reply measures its output tokens, tokens per second from the first text on, and the latency to that text', async () => {
    const wire = streamingFetch();
    let clock = 1000;
    const store = createPlaygroundStore({ apiBase: '', fetch: wire.fetchImpl, now: () => clock });
    store.getState().set({ model: 'm', input: 'Hello' });
    const sending = store.getState().send('key');
    await until(store, (state) => state.streaming);
    clock = 1250;
    wire.push(openaiChunk('Hi'));
    await until(store, (state) => state.output === 'Hi');
    clock = 1750;
    wire.push(
      `${openaiChunk(' there')}data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 20 } })}\n\ndata: [DONE]\n\n`,
    );
    wire.end();
    await sending;
    assert.deepEqual(store.getState().turns.at(-1)!.stats, { tokens: 20, tokensPerSecond: 40, latencyMs: 250 });
  });

  test('with streaming off the reply is one JSON answer, measured from the request to the answer', async () => {
    let clock = 0;
    const requests: RequestInit[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      requests.push(init);
      clock = 400;
      return Response.json({
        object: 'chat.completion',
        choices: [{ message: { role: 'assistant', content: 'Whole answer' } }],
        usage: { completion_tokens: 8 },
      });
    }) as unknown as typeof fetch;
    const store = createPlaygroundStore({ apiBase: '', fetch: fetchImpl, now: () => clock });
    store.getState().set({ model: 'm', input: 'Hello', stream: false });
    await store.getState().send('key');
    const body = JSON.parse(String(requests[0]!.body));
    assert.equal(body.stream, false);
    assert.equal(body.stream_options, undefined);
    assert.deepEqual(store.getState().turns.at(-1), {
      role: 'assistant',
      text: 'Whole answer',
      stats: { tokens: 8, tokensPerSecond: 20, latencyMs: 400 },
    });
  });

  test('a refused request shows the gateway message and gives the message back', async () => {
    const fetchImpl = (async () =>
      new Response(
        JSON.stringify({ error: { message: 'This API token has been revoked', type: 'permission_error', param: null, code: null } }),
        {
          status: 403,
        },
      )) as unknown as typeof fetch;
    const store = createPlaygroundStore({ apiBase: '', fetch: fetchImpl });
    store.getState().set({ model: 'm', input: 'Hello' });
    await store.getState().send('key');
    assert.equal(store.getState().error, 'This API token has been revoked');
    assert.deepEqual(store.getState().turns, []);
    assert.equal(store.getState().input, 'Hello');
  });

  test('models come from /v1/models and each format prefers its own family', async () => {
    const fetchImpl = (async () =>
      Response.json({ data: [{ id: 'gpt-4o-mini' }, { id: 'claude-sonnet-4-5' }, { id: 'gemini-2.5-flash' }] })) as unknown as typeof fetch;
    const store = createPlaygroundStore({ apiBase: '', fetch: fetchImpl });
    await store.getState().loadModels('key');
    assert.equal(store.getState().model, 'gpt-4o-mini');
    store.getState().set({ format: 'anthropic' });
    assert.equal(store.getState().model, 'claude-sonnet-4-5');
    store.getState().set({ format: 'gemini' });
    assert.equal(store.getState().model, 'gemini-2.5-flash');
  });
});

describe('chat wire formats', () => {
  const settings = {
    model: 'm-1',
    system: 'sys',
    temperature: 0.5,
    maxTokens: 64,
    stream: true,
    pace: 0,
    latencyMs: 0,
    fault: '' as const,
  };
  const turns = [
    { role: 'user' as const, text: 'a' },
    { role: 'assistant' as const, text: 'b' },
  ];

  test('Anthropic and Gemini requests use their own paths, headers and shapes', () => {
    const anthropic = buildChatRequest('anthropic', settings, turns, 'k');
    assert.equal(anthropic.path, '/v1/messages');
    assert.equal(anthropic.headers['x-api-key'], 'k');
    assert.equal(anthropic.body['system'], 'sys');
    assert.equal(anthropic.body['max_tokens'], 64);
    const gemini = buildChatRequest('gemini', settings, turns, 'k');
    assert.equal(gemini.path, '/v1beta/models/m-1:streamGenerateContent?alt=sse');
    assert.deepEqual(
      (gemini.body['contents'] as any[]).map((item) => item.role),
      ['user', 'model'],
    );
    assert.deepEqual(gemini.body['systemInstruction'], { parts: [{ text: 'sys' }] });
    assert.equal(buildChatRequest('gemini', { ...settings, stream: false }, turns, 'k').path, '/v1beta/models/m-1:generateContent');
    assert.equal(buildChatRequest('anthropic', { ...settings, stream: false }, turns, 'k').body['stream'], false);
  });

  test('a whole answer yields its text and output tokens in each format', () => {
    assert.deepEqual(readAnswer('anthropic', { content: [{ type: 'text', text: 'Hi' }], usage: { input_tokens: 2, output_tokens: 5 } }), {
      text: 'Hi',
      outputTokens: 5,
      done: true,
    });
    assert.deepEqual(
      readAnswer('gemini', {
        candidates: [{ content: { parts: [{ text: 'Yo' }] }, finishReason: 'STOP' }],
        usageMetadata: { candidatesTokenCount: 4 },
      }),
      { text: 'Yo', outputTokens: 4, done: true },
    );
  });

  test('the test values become x-gatehouse-* headers in every format, and none while they are off', () => {
    for (const format of ['openai', 'anthropic', 'gemini'] as const) {
      const plain = buildChatRequest(format, settings, turns, 'k');
      assert.equal(
        Object.keys(plain.headers).some((name) => name.startsWith('x-gatehouse-')),
        false,
      );
      const tested = buildChatRequest(format, { ...settings, pace: 5, latencyMs: 1500, fault: '429' }, turns, 'k');
      assert.equal(tested.headers['x-gatehouse-pace'], '5');
      assert.equal(tested.headers['x-gatehouse-latency-ms'], '1500');
      assert.equal(tested.headers['x-gatehouse-fault'], '429');
    }
  });

  test('stream events yield text, the end, or an error in each format', () => {
    const sse = (data: unknown, event?: string) => ({ event, data: JSON.stringify(data) });
    assert.deepEqual(readStreamStep('anthropic', sse({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'x' } })), {
      text: 'x',
    });
    assert.deepEqual(readStreamStep('anthropic', sse({ type: 'message_stop' })), { done: true });
    assert.deepEqual(readStreamStep('anthropic', sse({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } })), {
      error: 'busy',
    });
    assert.deepEqual(readStreamStep('gemini', sse({ candidates: [{ content: { parts: [{ text: 'y' }] }, finishReason: 'STOP' }] })), {
      text: 'y',
      done: true,
    });
    assert.deepEqual(readStreamStep('openai', { event: undefined, data: '[DONE]' }), { done: true });
  });

  test('SSE parsing keeps unfinished messages for the next chunk', async () => {
    const messages: SseMessage[] = [];
    let push!: (text: string) => void;
    let end!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        end = () => controller.close();
      },
    });
    const reading = readSse(body, (message) => messages.push(message));
    push('event: a\ndata: 1\n\ndata: 2');
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(messages, [{ event: 'a', data: '1' }]);
    push('\r\n\r\n');
    end();
    await reading;
    assert.deepEqual(messages, [
      { event: 'a', data: '1' },
      { event: undefined, data: '2' },
    ]);
  });

  test('copy as curl quotes for the shell and reads the credential from $TOKEN, never the playground key', () => {
    const curl = toCurl('http://127.0.0.1:8790', {
      path: '/v1/messages',
      headers: { 'x-api-key': 'sk-gh-AB…', 'anthropic-version': "2023-06-01's" },
      body: { text: "it's" },
      stream: true,
    });
    assert.equal(
      curl,
      `curl -N 'http://127.0.0.1:8790/v1/messages' \\\n  -H "x-api-key: $TOKEN" \\\n  -H 'anthropic-version: 2023-06-01'\\''s' \\\n  -d '{"text":"it'\\''s"}'`,
    );
  });
});

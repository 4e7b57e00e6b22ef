// Integration tests of faults on the Anthropic and Gemini routes: each SDK sees its own error shape, and model-name triggers work.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import WebSocket from 'ws';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

const MESSAGE = { model: 'sim-chat', max_tokens: 50, messages: [{ role: 'user' as const, content: 'hello' }] };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('faults in the Anthropic and Gemini shapes', () => {
  let gw: TestGateway;
  let anthropic: Anthropic;
  before(async () => {
    gw = await startGateway();
    anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
  });
  after(() => gw.stop());

  test('anthropic: 529 is overloaded_error, 429 is rate_limit_error with Retry-After', async () => {
    const overloaded = await failure(anthropic.messages.create(MESSAGE, { headers: { 'x-gatehouse-fault': '529' } }));
    assert.ok(overloaded instanceof Anthropic.APIError);
    assert.equal(overloaded.status, 529);
    assert.deepEqual((overloaded.error as { error: { type: string } }).error.type, 'overloaded_error');
    const limited = await failure(anthropic.messages.create(MESSAGE, { headers: { 'x-gatehouse-fault': '429' } }));
    assert.ok(limited instanceof Anthropic.RateLimitError);
    assert.equal((limited.error as { error: { type: string } }).error.type, 'rate_limit_error');
    assert.ok(Number(limited.headers?.get('retry-after')) > 0);
  });

  test('anthropic: a model named …-fault-529x1 fails once, so one SDK retry succeeds', async () => {
    const retrying = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 1 });
    const message = await retrying.messages.create({
      ...MESSAGE,
      model: 'sim-chat-fault-529x1',
      messages: [{ role: 'user', content: 'retry me' }],
    });
    assert.equal(message.type, 'message');
    assert.equal(message.model, 'sim-chat-fault-529x1');
  });

  test('anthropic: a disconnect fault cuts the stream, which the SDK reports as an error', async () => {
    const stream = anthropic.messages.stream(MESSAGE, { headers: { 'x-gatehouse-fault': 'disconnect' } });
    const events: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of stream) events.push(event.type);
      })(),
    );
    assert.ok(error instanceof Error);
    assert.ok(events.length > 0 && !events.includes('message_stop'), events.join());
  });

  test('gemini: a model named …-fault-429 in the path is RESOURCE_EXHAUSTED; 503 is UNAVAILABLE', async () => {
    const ai = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    const limited = await failure(ai.models.generateContent({ model: 'sim-chat-fault-429', contents: 'hello' }));
    assert.ok(limited instanceof ApiError);
    assert.equal(limited.status, 429);
    assert.match(limited.message, /RESOURCE_EXHAUSTED/);
    const raw = await request(`${gw.url}/v1beta/models/sim-chat:generateContent`, 'POST', {
      headers: { 'x-goog-api-key': gw.token, 'x-gatehouse-fault': '503' },
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    });
    assert.equal(raw.status, 503);
    assert.deepEqual(Object.keys(raw.body.error).sort(), ['code', 'message', 'status']);
    assert.equal(raw.body.error.status, 'UNAVAILABLE');
    assert.equal(raw.body.error.code, 503);
  });

  test('a counted fault counts the attempts of each token apart, whichever header carries it', async () => {
    const other = gw.gateway.context.tokens.create({ account: 'local' }).secret;
    const call = (key: string) =>
      request(`${gw.url}/v1beta/models/sim-chat:generateContent`, 'POST', {
        headers: { 'x-goog-api-key': key, 'x-gatehouse-fault': '429*1' },
        body: { contents: [{ role: 'user', parts: [{ text: 'count me' }] }] },
      });
    assert.deepEqual([(await call(gw.token)).status, (await call(gw.token)).status], [429, 200]);
    assert.deepEqual([(await call(other)).status, (await call(other)).status], [429, 200], 'another token has its own first attempt');
  });

  test('realtime: a model named …-fault-503 in ?model= refuses the WebSocket upgrade with 503', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${gw.url.replace(/^http/, 'ws')}/v1/realtime?model=gpt-realtime-fault-503`, {
        headers: { authorization: `Bearer ${gw.token}` },
      });
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
      });
      socket.on('open', () => {
        socket.close();
        reject(new Error('the upgrade was accepted'));
      });
      socket.on('error', () => undefined);
    });
    assert.equal(status, 503);
  });
});

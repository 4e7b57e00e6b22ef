// Integration tests of faults on demand: each fault surfaces as the official SDK's own error, and counted faults let retries succeed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';

const CHAT = { model: 'sim-chat', messages: [{ role: 'user' as const, content: 'hello' }] };

describe('faults on demand', () => {
  let gw: TestGateway;
  const client = (options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
    new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0, ...options });
  const fault = (value: string) => ({ headers: { 'x-gatehouse-fault': value } });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.stop());

  test('429 is a RateLimitError with Retry-After; with a count the SDK retry then succeeds', async () => {
    const limited = await failure(client().chat.completions.create(CHAT, fault('429')));
    assert.ok(limited instanceof OpenAI.RateLimitError);
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.equal(limited.headers.get('retry-after-ms'), '200');
    const retrying = client({ maxRetries: 2 });
    const { data, response } = await retrying.chat.completions.create(CHAT, fault('429*1')).withResponse();
    assert.equal(data.object, 'chat.completion');
    assert.equal(response.status, 200);
    const twice = await failure(client({ maxRetries: 1 }).chat.completions.create({ ...CHAT, seed: 1 }, fault('429*2')));
    assert.ok(twice instanceof OpenAI.RateLimitError, 'two failing attempts outlast one retry');
  });

  test('500, 503 and 529 are server errors in the OpenAI shape', async () => {
    for (const [value, status] of [
      ['500', 500],
      ['503', 503],
      ['529', 529],
    ] as const) {
      const error = await failure(client().chat.completions.create(CHAT, fault(value)));
      assert.ok(error instanceof OpenAI.InternalServerError, value);
      assert.equal(error.status, status);
      assert.equal(typeof (error.error as { message?: unknown }).message, 'string');
    }
  });

  test('an unknown fault value is a 400 naming the header, while a model that merely contains -fault- is served', async () => {
    const typo = await failure(client().chat.completions.create(CHAT, fault('timeuot')));
    assert.ok(typo instanceof OpenAI.BadRequestError);
    assert.equal(typo.param, 'x-gatehouse-fault');
    const served = await client().chat.completions.create({ ...CHAT, model: 'my-fault-tolerant' });
    assert.equal(served.model, 'my-fault-tolerant');
  });

  test('timeout holds the call until the client gives up', async () => {
    const error = await failure(client({ timeout: 300 }).chat.completions.create(CHAT, fault('timeout')));
    assert.ok(error instanceof OpenAI.APIConnectionTimeoutError);
  });

  test('disconnect cuts a stream after a few chunks and drops a plain call', async () => {
    const stream = await client().chat.completions.create({ ...CHAT, stream: true }, fault('disconnect'));
    let chunks = 0;
    const error = await failure(
      (async () => {
        for await (const _ of stream) chunks += 1;
      })(),
    );
    assert.ok(error instanceof Error, 'the stream ends with an error, not silently');
    assert.equal(chunks, 3);
    assert.ok((await failure(client().chat.completions.create(CHAT, fault('disconnect')))) instanceof OpenAI.APIConnectionError);
  });

  test('malformed breaks the JSON body or an SSE frame', async () => {
    assert.ok((await failure(client().chat.completions.create(CHAT, fault('malformed')))) instanceof Error);
    const stream = await client().chat.completions.create({ ...CHAT, stream: true }, fault('malformed'));
    const error = await failure(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    );
    assert.ok(error instanceof Error);
  });

  test('a client that can only set the model name triggers faults with a -fault-<value> suffix', async () => {
    const error = await failure(client().chat.completions.create({ ...CHAT, model: 'gpt-4o-fault-503' }));
    assert.ok(error instanceof OpenAI.InternalServerError);
    assert.equal(error.status, 503);
    const retried = await client({ maxRetries: 1 }).chat.completions.create({ ...CHAT, model: 'gpt-4o-fault-429x1' });
    assert.equal(retried.model, 'gpt-4o-fault-429x1');
  });

  test('x-gatehouse-pace streams the answer piece by piece instead of in one burst', async () => {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json', 'x-gatehouse-pace': '40' },
      body: JSON.stringify({ model: 'sim-echo', messages: [{ role: 'user', content: 'one two three four five six' }], stream: true }),
    });
    let reads = 0;
    let body = '';
    const decoder = new TextDecoder();
    for await (const bytes of response.body!) {
      reads += 1;
      body += decoder.decode(bytes, { stream: true });
    }
    assert.ok(body.endsWith('data: [DONE]\n\n'));
    assert.ok(reads >= 4, `the paced frames arrived in ${reads} reads`);
  });

  test('x-gatehouse-latency-ms delays the answer and portrait calls are never faulted', async () => {
    const answered = await client().chat.completions.create(CHAT, { headers: { 'x-gatehouse-latency-ms': '50' } });
    assert.equal(answered.object, 'chat.completion');
    const portrait = await request(`${gw.url}/v1/portrait/groups`, 'POST', {
      token: gw.token,
      body: { name: 'no faults here' },
      headers: { 'x-gatehouse-fault': '500' },
    });
    assert.equal(dataOf(portrait).name, 'no faults here');
    assert.equal(dataOf(await portraitClient(gw.url, gw.token).listGroups()).total, 1);
  });

  test('only an authenticated API call is faulted: a public route, the admin API and an unknown path answer as without the header', async () => {
    for (const value of ['500', 'bogus']) {
      const headers = { 'x-gatehouse-fault': value, 'x-gatehouse-latency-ms': '1' };
      const health = await request(`${gw.url}/healthz`, 'GET', { headers });
      assert.deepEqual([health.status, health.body], [200, { status: 'ok' }]);
      const admin = await request(`${gw.url}/admin/api/tokens`, 'GET', { token: gw.gateway.adminToken, headers });
      assert.equal(admin.status, 200);
      const unknown = await request(`${gw.url}/v1/no-such-endpoint`, 'POST', { token: gw.token, body: {}, headers });
      assert.equal(unknown.status, 404);
      assert.match(unknown.body.error.message, /Unknown endpoint: POST \/v1\/no-such-endpoint/);
      const refused = await request(`${gw.url}/v1/chat/completions`, 'POST', { token: 'sk-gh-not-a-token', body: CHAT, headers });
      assert.equal(refused.status, 401);
    }
    const bogus = await failure(client().chat.completions.create(CHAT, fault('bogus')));
    assert.ok(bogus instanceof OpenAI.BadRequestError, 'an authenticated call with an unknown fault is refused');
  });
});

test('a call held by the timeout fault is released when the gateway stops, so stopping does not hang', { timeout: 30_000 }, async () => {
  const gw = await startGateway();
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  // Two identical calls with `timeout*1`: the first to arrive is held, the second is answered, which proves the hold began.
  const call = () =>
    client.chat.completions.create(CHAT, { headers: { 'x-gatehouse-fault': 'timeout*1' } }).then(
      (completion) => completion,
      (error: unknown) => error,
    );
  const calls = [call(), call()];
  const first = await Promise.race(calls);
  assert.equal((first as { object?: string }).object, 'chat.completion');
  await gw.stop();
  const outcomes = await Promise.all(calls);
  const held = outcomes.find((outcome) => outcome !== first);
  assert.ok(held instanceof OpenAI.APIConnectionError, String(held));
});

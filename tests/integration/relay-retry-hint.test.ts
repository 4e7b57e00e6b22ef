// The retry hint (x-should-retry) on every error answer, and a channel whose key the upstream refuses seen by the client as the gateway's configuration error, through the official SDKs with retries on.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { memoryChannels } from '../helpers/channels.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

/** A fetch that counts the SDK's attempts (each retry is one more call). */
function countingFetch(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      calls += 1;
      return fetch(input, init);
    },
    calls: () => calls,
  };
}

/** An upstream that refuses every key, as a provider does with a wrong channel key. */
function refusingEveryKey(status: 401 | 403) {
  return (_: unknown, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }),
    );
  };
}

describe('retry hint and refused channel keys', () => {
  let upstream: HostileUpstream;
  let gateway: TestGateway;
  let channels: ReturnType<typeof memoryChannels>;

  before(async () => {
    upstream = await hostileUpstream(refusingEveryKey(401));
    channels = memoryChannels([
      { name: 'wrong-openai-key', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: 'sk-wrong-openai-0123456789', models: ['oa-model'] },
      { name: 'wrong-anthropic-key', kind: 'anthropic', baseUrl: upstream.url, key: 'sk-ant-wrong-0123456789', models: ['an-model'] },
      { name: 'wrong-gemini-key', kind: 'gemini', baseUrl: upstream.url, key: 'AIza-wrong-0123456789', models: ['gm-model'] },
    ]);
    gateway = await startGateway({ channels });
  });
  after(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  test('a wrong client token: one attempt of each SDK, its own authentication error, x-should-retry false', async () => {
    const openaiCount = countingFetch();
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'gh-not-a-token', maxRetries: 3, fetch: openaiCount.fetch });
    const openaiError = await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] }).then(
      () => assert.fail('a wrong token is refused'),
      (error: unknown) => error,
    );
    assert.ok(openaiError instanceof OpenAI.AuthenticationError);
    assert.equal(openaiError.headers?.get('x-should-retry'), 'false');
    assert.equal(openaiCount.calls(), 1);

    const anthropicCount = countingFetch();
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'gh-not-a-token', maxRetries: 3, fetch: anthropicCount.fetch });
    const anthropicError = await anthropic.messages
      .create({ model: 'sim-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => assert.fail('a wrong token is refused'),
        (error: unknown) => error,
      );
    assert.ok(anthropicError instanceof Anthropic.AuthenticationError);
    assert.equal(anthropicError.headers?.get('x-should-retry'), 'false');
    assert.equal(anthropicCount.calls(), 1);
  });

  test('every protocol hints false on 400, 401 and 404, true on 429, 500 and 529', async () => {
    const chat = { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] };
    const cases: [string, string, string | undefined, unknown, number][] = [
      ['openai 401', '/v1/chat/completions', 'wrong', chat, 401],
      ['openai 400', '/v1/chat/completions', gateway.token, { model: 'sim-chat' }, 400],
      ['openai unknown path', '/v1/nothing-here', gateway.token, chat, 404],
      ['anthropic 401', '/v1/messages', 'wrong', chat, 401],
      ['anthropic 400', '/v1/messages', gateway.token, { model: 'sim-chat' }, 400],
      ['gemini 401', '/v1beta/models/sim-chat:generateContent', 'wrong', { contents: [] }, 401],
    ];
    for (const [name, path, token, body, status] of cases) {
      const answer = await request(`${gateway.url}${path}`, 'POST', { token, body });
      assert.equal(answer.status, status, name);
      assert.equal(answer.headers.get('x-should-retry'), 'false', name);
    }
    // A rate limit and a server failure are worth another try.
    for (const fault of ['429', '500', '529']) {
      const answer = await request(`${gateway.url}/v1/chat/completions`, 'POST', {
        token: gateway.token,
        body: chat,
        headers: { 'x-gatehouse-fault': fault },
      });
      assert.equal(answer.status, Number(fault), fault);
      assert.equal(answer.headers.get('x-should-retry'), 'true', fault);
    }
  });

  test("a channel whose key the upstream refuses: one upstream attempt, a 502 naming the channel's configuration, never an AuthenticationError", async () => {
    const cases: { model: string; channel: string; sdk: 'openai' | 'anthropic' }[] = [
      { model: 'oa-model', channel: 'wrong-openai-key', sdk: 'openai' },
      { model: 'an-model', channel: 'wrong-anthropic-key', sdk: 'anthropic' },
      // Translated calls: the caller's protocol is not the channel's.
      { model: 'an-model', channel: 'wrong-anthropic-key', sdk: 'openai' },
      { model: 'oa-model', channel: 'wrong-openai-key', sdk: 'anthropic' },
    ];
    for (const { model, channel, sdk } of cases) {
      const label = `${sdk} SDK → ${channel}`;
      const seenBefore = upstream.requests.length;
      const attemptsBefore = channels.attempts.length;
      const count = countingFetch();
      const error =
        sdk === 'openai'
          ? await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 2, fetch: count.fetch }).chat.completions
              .create({ model, messages: [{ role: 'user', content: 'hi' }] })
              .then(
                () => assert.fail(label),
                (caught: unknown) => caught,
              )
          : await new Anthropic({ baseURL: gateway.url, apiKey: gateway.token, maxRetries: 2, fetch: count.fetch }).messages
              .create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
              .then(
                () => assert.fail(label),
                (caught: unknown) => caught,
              );
      assert.ok(!(error instanceof OpenAI.AuthenticationError) && !(error instanceof Anthropic.AuthenticationError), label);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      assert.equal(apiError.status, 502, label);
      assert.equal(apiError.headers?.get('x-should-retry'), 'false', label);
      assert.match(apiError.message, new RegExp(`channel '${channel}' is misconfigured: its key was refused by the upstream`), label);
      assert.match(apiError.message, /gatehouse channel update/, label);
      assert.equal(count.calls(), 1, `${label}: the SDK does not retry`);
      assert.equal(upstream.requests.length - seenBefore, 1, `${label}: one attempt at the upstream`);
      // The channel is marked failed, as any refused key is.
      const recorded = channels.attempts.slice(attemptsBefore);
      assert.deepEqual(
        recorded.map((attempt) => [attempt.channel, attempt.outcome.ok]),
        [[channel, false]],
        label,
      );
    }
  });

  test('a refused channel key on the Gemini protocol, and a 403 alike: the gateway error in the caller shape', async () => {
    const gemini = await request(`${gateway.url}/v1beta/models/gm-model:generateContent`, 'POST', {
      token: gateway.token,
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    });
    assert.equal(gemini.status, 502);
    assert.equal(gemini.headers.get('x-should-retry'), 'false');
    assert.match(gemini.body.error.message, /channel 'wrong-gemini-key' is misconfigured/);
    assert.equal(gemini.body.error.code, 502);

    upstream.handle(refusingEveryKey(403));
    try {
      const forbidden = await request(`${gateway.url}/v1/chat/completions`, 'POST', {
        token: gateway.token,
        body: { model: 'oa-model', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(forbidden.status, 502);
      assert.equal(forbidden.headers.get('x-should-retry'), 'false');
      assert.match(forbidden.body.error.message, /channel 'wrong-openai-key' is misconfigured: .*\(HTTP 403\)/);
    } finally {
      upstream.handle(refusingEveryKey(401));
    }
  });

  test("a relayed upstream's own client error reaches the caller with the hint added, and the upstream's own hint kept", async () => {
    upstream.handle((received, response) => {
      const hinted = received.body.toString().includes('hinted');
      response.writeHead(400, { 'content-type': 'application/json', ...(hinted && { 'x-should-retry': 'true' }) });
      response.end(JSON.stringify({ error: { message: 'bad field', type: 'invalid_request_error', code: null } }));
    });
    try {
      const chat = (content: string) => ({ model: 'oa-model', messages: [{ role: 'user', content }] });
      const plain = await request(`${gateway.url}/v1/chat/completions`, 'POST', { token: gateway.token, body: chat('x') });
      assert.equal(plain.status, 400);
      assert.equal(plain.body.error.message, 'bad field');
      assert.equal(plain.headers.get('x-should-retry'), 'false');
      const hinted = await request(`${gateway.url}/v1/chat/completions`, 'POST', { token: gateway.token, body: chat('hinted') });
      assert.equal(hinted.headers.get('x-should-retry'), 'true');
    } finally {
      upstream.handle(refusingEveryKey(401));
    }
  });

  test('a channel whose key is refused is passed over for the next channel of the model', async () => {
    const good = await startGateway();
    const both = memoryChannels([
      { name: 'refused', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: 'sk-wrong-0123456789', models: ['m'], priority: 2 },
      { name: 'good', kind: 'openai', baseUrl: `${good.url}/v1`, key: good.token, models: ['m=sim-chat'], priority: 1 },
    ]);
    const relay = await startGateway({ channels: both });
    try {
      const openai = new OpenAI({ baseURL: `${relay.url}/v1`, apiKey: relay.token, maxRetries: 0 });
      const answer = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(answer.object, 'chat.completion');
      assert.deepEqual(
        both.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
        [
          ['refused', false],
          ['good', true],
        ],
      );
    } finally {
      await relay.stop();
      await good.stop();
    }
  });
});

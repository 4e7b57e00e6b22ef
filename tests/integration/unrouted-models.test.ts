// A model no channel serves, once the user has channels: refused in the caller's protocol naming the served models (a typo is not simulated as if real), still simulated without channels, for sim-* names and under --unrouted simulate.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

describe('unrouted models', () => {
  let upstream: HostileUpstream;
  const opened: TestGateway[] = [];

  before(async () => {
    // The upstream answers every chat with one completion naming the model it was sent.
    upstream = await hostileUpstream((received, response) => {
      const { model } = JSON.parse(received.body.toString('utf8')) as { model: string };
      const choices = [{ index: 0, message: { role: 'assistant', content: 'relayed' }, finish_reason: 'stop' }];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model, choices }));
    });
  });
  after(async () => {
    for (const gateway of opened) await gateway.stop();
    await upstream?.close();
  });

  /** A gateway with, when `channel`, one channel serving `gpt-real` and `claude-real` through the upstream gateway. */
  async function front(channel: boolean, options: Parameters<typeof startGateway>[0] = {}): Promise<TestGateway> {
    const gateway = await startGateway(options);
    opened.push(gateway);
    if (channel) {
      const added = await request(`${gateway.url}/admin/api/channels`, 'POST', {
        token: gateway.gateway.adminToken,
        body: { name: 'real', kind: 'openai', base_url: `${upstream.url}/v1`, models: 'gpt-real,claude-real' },
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
    }
    return gateway;
  }
  const openai = (gateway: TestGateway) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
  const chat = (gateway: TestGateway, model: string) =>
    openai(gateway).chat.completions.create({ model, messages: [{ role: 'user', content: 'hello there' }] });

  test('a mistyped model is refused once a channel exists, in each protocol, naming the served models', async () => {
    const gateway = await front(true);
    await assert.rejects(chat(gateway, 'gpt-reall'), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.equal(error.code, 'model_not_found');
      assert.match(error.message, /'gpt-reall' does not exist; the channels serve: gpt-real, claude-real/);
      return true;
    });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: gateway.token, maxRetries: 0 });
    await assert.rejects(
      anthropic.messages.create({ model: 'claude-reall', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof Anthropic.NotFoundError, String(error));
        assert.equal((error.error as { error: { type: string } }).error.type, 'not_found_error');
        assert.match(error.message, /gpt-real/);
        return true;
      },
    );
    const gemini = await fetch(`${gateway.url}/v1beta/models/gemini-reall:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': gateway.token, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    assert.equal(gemini.status, 404);
    const body = (await gemini.json()) as { error: { status: string; message: string } };
    assert.equal(body.error.status, 'NOT_FOUND');
    assert.match(body.error.message, /gpt-real/);
    // The served model itself is relayed.
    assert.equal((await chat(gateway, 'gpt-real')).choices[0]!.message.content, 'relayed');
  });

  test('simulator models (sim-*, -echo, a -fault- test value) are still simulated beside channels', async () => {
    const gateway = await front(true);
    assert.ok((await chat(gateway, 'sim-chat')).choices[0]!.message.content);
    assert.equal((await chat(gateway, 'my-echo')).choices[0]!.message.content, 'hello there');
    await assert.rejects(chat(gateway, 'gpt-4o-fault-500'), { status: 500 });
  });

  test('without channels, or with --unrouted simulate, any model name is simulated; --unrouted reject refuses it', async () => {
    assert.ok((await chat(await front(false), 'gpt-reall')).choices[0]!.message.content);
    assert.ok((await chat(await front(true, { unrouted: 'simulate' }), 'gpt-reall')).choices[0]!.message.content);
    await assert.rejects(chat(await front(false, { unrouted: 'reject' }), 'gpt-reall'), { status: 404 });
  });
});

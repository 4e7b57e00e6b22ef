// Relay routing a user would expect: a lone channel is never cooled into refusals, client errors never count against a channel, and a model the upstream does not know rests on that channel alone.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream, type ReceivedRequest } from '../helpers/hostile-upstream.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

/** An OpenAI chat completion naming `model`. */
function completion(response: ServerResponse, model: string): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatCompletion(model, 'upstream answer')));
}

const modelOf = (received: ReceivedRequest): string => (JSON.parse(received.body.toString('utf8')) as { model: string }).model;

describe('relay routing', () => {
  const opened: { stop(): Promise<void> }[] = [];
  after(async () => {
    for (const item of opened.reverse()) await item.stop();
  });

  /** A gateway (real channel store) with one keyless OpenAI channel per upstream, listed with falling priority. */
  async function gatewayWith(...upstreams: HostileUpstream[]): Promise<{ gateway: TestGateway; client: (maxRetries: number) => OpenAI }> {
    const gateway = await startGateway();
    opened.push(gateway, ...upstreams.map((upstream) => ({ stop: () => upstream.close() })));
    for (const [index, upstream] of upstreams.entries()) {
      const added = await request(`${gateway.url}/admin/api/channels`, 'POST', {
        token: gateway.gateway.adminToken,
        body: { name: `up${index}`, kind: 'openai', base_url: `${upstream.url}/v1`, models: '*', priority: 10 - index },
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
    }
    const client = (maxRetries: number) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries });
    return { gateway, client };
  }

  const healthOf = async (gateway: TestGateway, name: string) => {
    const { body } = await request(`${gateway.url}/admin/api/channels`, 'GET', { token: gateway.gateway.adminToken });
    return (body as { name: string; health: { consecutive_failures: number; cooldown_until: number | null } }[]).find(
      (c) => c.name === name,
    )!.health;
  };

  test("a lone channel keeps serving after the SDK's own retries on 429s, and its other models are not refused", async () => {
    let calls = 0;
    const upstream = await hostileUpstream((received, response) => {
      calls += 1;
      if (calls <= 4) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '1' });
        response.end(
          JSON.stringify({ error: { message: 'Rate limit reached for gpt-busy', type: 'requests', code: 'rate_limit_exceeded' } }),
        );
        return;
      }
      completion(response, modelOf(received));
    });
    const { gateway, client } = await gatewayWith(upstream);
    // The SDK's first two tries each get 429 twice (the gateway honours the short Retry-After once); its third is served.
    const answer = await client(2).chat.completions.create({ model: 'gpt-busy', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.choices[0]!.message.content, 'upstream answer');
    assert.equal(calls, 5, 'four 429s, then the answer');
    const other = await client(0).chat.completions.create({ model: 'gpt-other', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(other.choices[0]!.message.content, 'upstream answer');
    const health = await healthOf(gateway, 'up0');
    assert.equal(health.cooldown_until, null, 'a rate limit does not cool the channel');
    assert.equal(health.consecutive_failures, 0);
  });

  test('a lone channel cooled by server errors is still tried, not refused as cooling down', async () => {
    let failing = true;
    const upstream = await hostileUpstream((received, response) => {
      if (failing) response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
      else completion(response, modelOf(received));
    });
    const { gateway, client } = await gatewayWith(upstream);
    await assert.rejects(client(2).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }), { status: 500 });
    assert.ok((await healthOf(gateway, 'up0')).cooldown_until !== null, 'three failures cool the channel');
    failing = false;
    const answer = await client(0).chat.completions.create({ model: 'm2', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.choices[0]!.message.content, 'upstream answer');
    assert.equal((await healthOf(gateway, 'up0')).cooldown_until, null, 'the success ends the cooldown');
  });

  test('client errors (400, 413, 422) from the upstream never count as channel failures', async () => {
    const statuses = [400, 413, 422, 400, 400];
    const upstream = await hostileUpstream((received, response) => {
      const status = statuses.shift();
      if (status === undefined) return completion(response, modelOf(received));
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end('{"error":{"message":"bad request","type":"invalid_request_error"}}');
    });
    const { gateway, client } = await gatewayWith(upstream);
    for (const status of [400, 413, 422, 400, 400])
      await assert.rejects(client(0).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }), { status });
    const health = await healthOf(gateway, 'up0');
    assert.equal(health.consecutive_failures, 0);
    assert.equal(health.cooldown_until, null);
    const answer = await client(0).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.choices[0]!.message.content, 'upstream answer');
  });

  test("a 404 model not found rests that model on that channel only: the next call for it goes to the next channel, the channel's other models stay", async () => {
    const first = await hostileUpstream((received, response) => {
      if (modelOf(received) === 'gpt-typo') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: { message: 'The model `gpt-typo` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
          }),
        );
        return;
      }
      completion(response, modelOf(received));
    });
    const second = await hostileUpstream((received, response) => completion(response, modelOf(received)));
    const { gateway, client } = await gatewayWith(first, second);
    const ask = (model: string) => client(0).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    await assert.rejects(ask('gpt-typo'), { status: 404 });
    assert.equal(first.requests.length, 1);
    assert.equal((await ask('gpt-typo')).choices[0]!.message.content, 'upstream answer');
    assert.equal(first.requests.length, 1, 'the model rests on the first channel');
    assert.equal(second.requests.length, 1, 'the next channel serves it');
    await ask('gpt-good');
    assert.equal(first.requests.length, 2, "the first channel's other models still go to it");
    const health = await healthOf(gateway, 'up0');
    assert.equal(health.consecutive_failures, 0);
    assert.equal(health.cooldown_until, null);
  });
});

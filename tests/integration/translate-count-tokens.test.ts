// Token counting of a translated model: the upstream's own counting endpoint where its protocol has one (Anthropic, Gemini), otherwise the local estimate marked as one.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { TestGateway } from '../helpers/gateway.ts';
import { startGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

/** An upstream answering every call with `answer` as JSON. */
const countingUpstream = (answer: unknown) =>
  hostileUpstream((_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));

describe('count_tokens of a translated model', () => {
  let upstream: HostileUpstream | undefined;
  let front: TestGateway | undefined;
  afterEach(async () => {
    await front?.stop();
    await upstream?.close();
    front = upstream = undefined;
  });

  const anthropicOf = (gateway: TestGateway) => new Anthropic({ baseURL: gateway.url, apiKey: gateway.token, maxRetries: 0 });
  const geminiOf = (gateway: TestGateway) =>
    new GoogleGenAI({ apiKey: gateway.token, httpOptions: { baseUrl: gateway.url, apiVersion: 'v1beta' } });

  test("an Anthropic client's count on a Gemini channel is Gemini's countTokens, with the system prompt and tools", async () => {
    upstream = await countingUpstream({ totalTokens: 4242 });
    front = await gatewayBefore(upstream, 'gemini');
    const { data, response } = await anthropicOf(front)
      .messages.countTokens({
        model: 'gem-model',
        system: 'Be terse.',
        tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} } }],
        messages: [{ role: 'user', content: 'count me' }],
      })
      .withResponse();
    assert.equal(data.input_tokens, 4242);
    assert.equal(response.headers.get('x-gatehouse-estimate'), null);
    const asked = upstream.requests.at(-1)!;
    assert.equal(asked.url, '/v1beta/models/gem-model:countTokens');
    const body = JSON.parse(asked.body.toString('utf8'));
    assert.equal(body.generateContentRequest.model, 'models/gem-model');
    assert.equal(body.generateContentRequest.contents[0].parts[0].text, 'count me');
    assert.ok(body.generateContentRequest.systemInstruction, 'the system prompt is counted');
    assert.ok(body.generateContentRequest.tools, 'the tools are counted');
  });

  test("a Gemini client's count on an Anthropic channel is Anthropic's count_tokens, without the fields it refuses", async () => {
    upstream = await countingUpstream({ input_tokens: 777 });
    front = await gatewayBefore(upstream, 'anthropic');
    const counted = await geminiOf(front).models.countTokens({ model: 'claude-model', contents: 'count me' });
    assert.equal(counted.totalTokens, 777);
    const asked = upstream.requests.at(-1)!;
    assert.equal(asked.url, '/v1/messages/count_tokens');
    assert.equal(asked.headers['anthropic-version'], '2023-06-01');
    const body = JSON.parse(asked.body.toString('utf8'));
    assert.deepEqual(Object.keys(body).sort(), ['messages', 'model']);
    assert.equal(body.model, 'claude-model');
  });

  test('an upstream error on counting reaches the client as an error, not as an estimate', async () => {
    upstream = await hostileUpstream(
      (_, response) =>
        void response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad count' } })),
    );
    front = await gatewayBefore(upstream, 'anthropic');
    await assert.rejects(geminiOf(front).models.countTokens({ model: 'claude-model', contents: 'count me' }), /bad count/);
  });

  test('on an OpenAI channel (no counting endpoint) the local estimate is answered and marked x-gatehouse-estimate: true', async () => {
    upstream = await countingUpstream({});
    front = await gatewayBefore(upstream, 'openai');
    const { data, response } = await anthropicOf(front)
      .messages.countTokens({ model: 'gpt-model', messages: [{ role: 'user', content: 'count me please' }] })
      .withResponse();
    assert.ok(data.input_tokens > 0);
    assert.equal(response.headers.get('x-gatehouse-estimate'), 'true');
    assert.equal(upstream.requests.length, 0, 'nothing was asked upstream');

    const gemini = await fetch(`${front.url}/v1beta/models/gpt-model:countTokens`, {
      method: 'POST',
      headers: { 'x-goog-api-key': front.token, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'count me please' }] }] }),
    });
    assert.equal(gemini.status, 200);
    assert.equal(gemini.headers.get('x-gatehouse-estimate'), 'true');
  });

  test("a simulated model's count is the simulator's own, not marked", async () => {
    front = await startGateway();
    const { response } = await anthropicOf(front)
      .messages.countTokens({ model: 'sim-echo', messages: [{ role: 'user', content: 'count me' }] })
      .withResponse();
    assert.equal(response.headers.get('x-gatehouse-estimate'), null);
  });
});

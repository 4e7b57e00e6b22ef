// Integration tests: a Gemini responseJsonSchema written with OpenAPI's upper-case types (Gemini CLI's router) is simulated with its fields and reaches an OpenAI channel as lower-case JSON Schema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GoogleGenAI } from '@google/genai';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

/** The shape of Gemini CLI's classifier: JSON Schema keywords, OpenAPI type names. */
const ROUTER_SCHEMA = {
  type: 'OBJECT',
  properties: {
    reasoning: { type: 'STRING' },
    model_choice: { type: 'STRING', enum: ['flash', 'pro'] },
    scores: { type: 'ARRAY', items: { type: 'NUMBER' } },
  },
  required: ['reasoning', 'model_choice', 'scores'],
};

const clientOf = (gateway: TestGateway) =>
  new GoogleGenAI({ apiKey: gateway.token, httpOptions: { baseUrl: gateway.url, apiVersion: 'v1beta' } });

const ask = (client: GoogleGenAI, model: string) =>
  client.models.generateContent({
    model,
    contents: 'Which model should answer this?',
    config: { responseMimeType: 'application/json', responseJsonSchema: ROUTER_SCHEMA },
  });

describe('Gemini responseJsonSchema with upper-case OpenAPI types', () => {
  let simulated: TestGateway;
  let upstream: HostileUpstream;
  let front: TestGateway;
  before(async () => {
    simulated = await startGateway();
    upstream = await hostileUpstream((_, response) => {
      const content = JSON.stringify({ reasoning: 'short', model_choice: 'flash', scores: [1] });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(chatCompletion('gpt-4o-mini', content, { id: 'chatcmpl-1', tokens: [5, 5] })));
    });
    front = await gatewayBefore(upstream, 'openai');
  });
  after(async () => {
    await simulated.stop();
    await front.stop();
    await upstream.close();
  });

  test("the simulator answers with the schema's fields, typed", async () => {
    const value = JSON.parse((await ask(clientOf(simulated), 'gemini-2.5-flash')).text!);
    assert.equal(typeof value.reasoning, 'string');
    assert.ok(['flash', 'pro'].includes(value.model_choice));
    assert.ok(Array.isArray(value.scores) && value.scores.every((score: unknown) => typeof score === 'number'));
  });

  test('translated to an OpenAI channel, the forwarded schema has lower-case JSON Schema types', async () => {
    const value = JSON.parse((await ask(clientOf(front), 'gpt-4o-mini')).text!);
    assert.equal(value.model_choice, 'flash');
    const sent = JSON.parse(upstream.requests.at(-1)!.body.toString('utf8'));
    const schema = sent.response_format.json_schema.schema;
    assert.equal(schema.type, 'object');
    assert.equal(schema.properties.reasoning.type, 'string');
    assert.deepEqual(schema.properties.model_choice, { type: 'string', enum: ['flash', 'pro'] });
    assert.deepEqual(schema.properties.scores, { type: 'array', items: { type: 'number' } });
  });
});

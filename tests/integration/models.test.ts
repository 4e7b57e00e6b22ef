// Integration tests of the model listing through the official OpenAI, Anthropic and Google SDKs, each seeing its own shape.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

const SIM_IDS = ['sim-chat', 'sim-echo', 'sim-embed', 'sim-image', 'sim-tts', 'sim-stt', 'sim-rerank', 'sim-3d', 'sim-realtime'];

describe('model listing', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.stop());

  test('openai: models.list and models.retrieve in the OpenAI shape', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      assert.equal(model.object, 'model');
      assert.equal(typeof model.created, 'number');
      assert.equal(typeof model.owned_by, 'string');
      ids.push(model.id);
    }
    assert.deepEqual(ids, SIM_IDS);
    const echo = await client.models.retrieve('sim-echo');
    assert.equal(echo.id, 'sim-echo');
    assert.equal(echo.object, 'model');
  });

  test('anthropic: models.list and models.retrieve in the Anthropic shape', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    const page = await client.models.list();
    assert.deepEqual(
      page.data.map((model) => model.id),
      SIM_IDS,
    );
    assert.equal(page.has_more, false);
    assert.equal(page.first_id, 'sim-chat');
    assert.equal(page.last_id, 'sim-realtime');
    for (const model of page.data) {
      assert.equal(model.type, 'model');
      assert.ok(model.display_name.length > 0);
      assert.ok(!Number.isNaN(Date.parse(model.created_at)));
    }
    const chat = await client.models.retrieve('sim-chat');
    assert.equal(chat.id, 'sim-chat');
    assert.equal(chat.type, 'model');
  });

  test('@google/genai: models.list and models.get in the Gemini shape, on v1 (its default) and v1beta', async () => {
    for (const apiVersion of [undefined, 'v1beta']) {
      const ai = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, ...(apiVersion && { apiVersion }) } });
      const names: string[] = [];
      for await (const model of await ai.models.list()) {
        names.push(model.name!);
        assert.ok(model.displayName);
        assert.ok(Array.isArray(model.supportedActions));
        assert.ok(model.inputTokenLimit! > 0 && model.outputTokenLimit! > 0);
      }
      assert.deepEqual(
        names,
        SIM_IDS.map((id) => `models/${id}`),
        String(apiVersion),
      );
      const chat = await ai.models.get({ model: 'sim-chat' });
      assert.equal(chat.name, 'models/sim-chat');
      assert.ok(chat.supportedActions!.includes('generateContent'));
    }
  });
});

describe('model aliases', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ modelAliases: { 'gpt-4o': 'sim-chat', 'text-embedding-3-small': 'sim-embed' } });
  });
  after(() => gw.stop());

  test('configured aliases are listed after the simulated models, described as their targets', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const ids = (await client.models.list()).data.map((model) => model.id);
    assert.deepEqual(ids.slice(-2), ['gpt-4o', 'text-embedding-3-small']);
    const ai = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    const embed = await ai.models.get({ model: 'text-embedding-3-small' });
    assert.match(embed.displayName!, /alias of sim-embed/);
    assert.ok(!embed.supportedActions!.includes('generateContent'));
  });

  test('a call through an alias is priced at the row of the model it stands for', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'price check' }] });
    const row = gw.gateway.context.db.prepare("SELECT amount_micros FROM usage_records WHERE model = 'gpt-4o'").get() as {
      amount_micros: number;
    };
    const { prompt_tokens, completion_tokens } = reply.usage!;
    assert.equal(row.amount_micros, Math.round(prompt_tokens * 1 + completion_tokens * 3), 'sim-chat: $1 / $3 per million');
  });
});

// A fake provider bundle injected through the selector answers embeddings, rerank, images and model calls through a real server: routes reach capabilities only through the seam, and calls are billed from what the provider reports.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallContext } from '../../../electron/gateway/providers/types.ts';
import { amountMicros, imagePriceMicros } from '../../../electron/gateway/services/pricing.ts';
import { request, startGateway, type TestGateway } from '../../helpers/gateway.ts';
import { fakeProviders } from '../../helpers/providers.ts';

/** What the fake provider was asked, by capability. */
const asked: { capability: string; request: unknown; call: CallContext }[] = [];
const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

const providers = fakeProviders({
  embeddings: {
    async embed(request, call) {
      asked.push({ capability: 'embeddings', request, call });
      return { vectors: request.inputs.map((_, i) => Float32Array.from([0.25, -0.5, i])), usage: { inputTokens: 42 } };
    },
  },
  rerank: {
    async rerank(request, call) {
      asked.push({ capability: 'rerank', request, call });
      return {
        results: [
          { index: 2, relevance: 0.75 },
          { index: 0, relevance: 0.5 },
        ],
        usage: { inputTokens: 7 },
      };
    },
  },
  images: {
    async generate(request, call) {
      asked.push({ capability: 'images', request, call });
      return [{ png: PNG_BYTES, width: 3, height: 2 }];
    },
    async edit() {
      throw new Error('not used');
    },
  },
  models: {
    async list() {
      return [{ id: 'fake-model', displayName: 'Fake', capability: 'tests', geminiMethods: ['embedContent'], created: 1_700_000_000 }];
    },
    async describe() {
      return undefined;
    },
  },
});

describe('the provider seam', () => {
  let gw: TestGateway;
  const post = (path: string, body: unknown) => request(`${gw.url}${path}`, 'POST', { token: gw.token, body });
  /** The last usage record of an endpoint. */
  const charged = (endpoint: string) =>
    gw.gateway.context.db
      .prepare('SELECT model, input_tokens, output_tokens, amount_micros FROM usage_records WHERE endpoint = ? ORDER BY id DESC LIMIT 1')
      .get(endpoint);
  before(async () => {
    gw = await startGateway({ providers });
  });
  after(() => gw.stop());

  test('embeddings come from the injected provider, billed by its usage', async () => {
    const response = await post('/v1/embeddings', { model: 'any-embed', input: ['a', [1, 2]], dimensions: 3 });
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.data.map((item: { embedding: number[] }) => item.embedding),
      [
        [0.25, -0.5, 0],
        [0.25, -0.5, 1],
      ],
    );
    assert.deepEqual(response.body.usage, { prompt_tokens: 42, total_tokens: 42 });
    const last = asked.at(-1)!;
    assert.equal(last.capability, 'embeddings');
    assert.deepEqual(last.request, { model: 'any-embed', inputs: ['a', [1, 2]], dimensions: 3 });
    assert.equal(last.call.endpoint, '/v1/embeddings');
    assert.equal(last.call.protocol, 'openai');
    assert.ok(last.call.principal.accountId > 0);
    assert.deepEqual(charged('/v1/embeddings'), {
      model: 'any-embed',
      input_tokens: 42,
      output_tokens: 0,
      amount_micros: amountMicros('any-embed', 42, 0),
    });
  });

  test("rerank results are the provider's, in its order, with the documents asked for", async () => {
    const response = await post('/v2/rerank', { model: 'any-rerank', query: 'q', documents: ['x', 'y', 'z'], return_documents: true });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.results, [
      { index: 2, relevance_score: 0.75, document: { text: 'z' } },
      { index: 0, relevance_score: 0.5, document: { text: 'x' } },
    ]);
    assert.deepEqual(response.body.usage, { total_tokens: 7 });
    assert.equal(asked.at(-1)!.call.protocol, 'rerank');
    assert.deepEqual(charged('/v2/rerank'), {
      model: 'any-rerank',
      input_tokens: 7,
      output_tokens: 0,
      amount_micros: amountMicros('any-rerank', 7, 0),
    });
  });

  test("an image is the provider's bytes, priced by its size", async () => {
    const response = await post('/v1/images/generations', { prompt: 'a fake', size: '256x256', response_format: 'b64_json' });
    assert.equal(response.status, 200);
    assert.equal(response.body.data.length, 1);
    assert.deepEqual(Buffer.from(response.body.data[0].b64_json, 'base64'), Buffer.from(PNG_BYTES));
    assert.equal(response.body.size, '3x2');
    assert.deepEqual(asked.at(-1)!.request, { model: 'sim-image', prompt: 'a fake', width: 256, height: 256, n: 1 });
    assert.deepEqual(charged('/v1/images/generations'), {
      model: 'sim-image',
      input_tokens: 0,
      output_tokens: 0,
      amount_micros: imagePriceMicros(3, 2),
    });
  });

  test("the model list is the provider's catalogue; a name it does not describe is a 404", async () => {
    const list = await request(`${gw.url}/v1/models`, 'GET', { token: gw.token });
    assert.deepEqual(list.body, {
      object: 'list',
      data: [{ id: 'fake-model', object: 'model', created: 1_700_000_000, owned_by: 'gatehouse' }],
    });
    const gemini = await request(`${gw.url}/v1beta/models`, 'GET', { token: gw.token });
    assert.deepEqual(
      gemini.body.models.map((model: { name: string }) => model.name),
      ['models/fake-model'],
    );
    assert.equal((await request(`${gw.url}/v1/models/sim-chat`, 'GET', { token: gw.token })).status, 404);
  });
});

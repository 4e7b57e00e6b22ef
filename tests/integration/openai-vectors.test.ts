// Integration tests of /v1/embeddings (through the official openai SDK) and /v1/rerank (Jina/Cohere shape).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { request } from '../helpers/gateway.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const norm = (a: number[]) => Math.sqrt(cosine(a, a));

describe('embeddings and rerank', () => {
  const suite = useOpenAIGateway();

  test('the SDK default (base64) decodes to the same unit vectors as float, deterministically', async () => {
    const input = ['The cat sat on the mat.', 'Quarterly revenue grew by ten percent.'];
    const viaBase64 = await suite.client.embeddings.create({ model: 'text-embedding-3-small', input });
    const viaFloat = await suite.client.embeddings.create({ model: 'text-embedding-3-small', input, encoding_format: 'float' });
    assert.equal(viaBase64.data.length, 2);
    assert.equal(viaBase64.data[0]!.embedding.length, 1536);
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(viaBase64.data[i]!.embedding, viaFloat.data[i]!.embedding);
      assert.equal(viaBase64.data[i]!.index, i);
      assert.ok(Math.abs(norm(viaFloat.data[i]!.embedding) - 1) < 1e-5);
    }
    const again = await suite.client.embeddings.create({ model: 'text-embedding-3-small', input, encoding_format: 'float' });
    assert.deepEqual(again.data, viaFloat.data);
    assert.ok(viaFloat.usage.prompt_tokens > 0);
    assert.equal(viaFloat.usage.total_tokens, viaFloat.usage.prompt_tokens);
  });

  test('texts that share words are closer than unrelated texts', async () => {
    const { data } = await suite.client.embeddings.create({
      model: 'sim-embed',
      encoding_format: 'float',
      input: ['a small black cat sleeps', 'the black cat sleeps all day', 'interest rates and bond markets'],
    });
    const [a, b, c] = data.map((item) => item.embedding);
    assert.ok(cosine(a!, b!) > cosine(a!, c!) + 0.2, `${cosine(a!, b!)} vs ${cosine(a!, c!)}`);
  });

  test('dimensions and token-array inputs are honoured', async () => {
    const small = await suite.client.embeddings.create({ model: 'sim-embed', input: 'hello world', dimensions: 64 });
    assert.equal(small.data[0]!.embedding.length, 64);
    const tokens = await suite.client.embeddings.create({
      model: 'sim-embed',
      input: [
        [15339, 1917],
        [15339, 1917],
      ],
      encoding_format: 'float',
    });
    assert.deepEqual(tokens.data[0]!.embedding, tokens.data[1]!.embedding);
    const single = await suite.client.embeddings.create({ model: 'sim-embed', input: [15339, 1917], encoding_format: 'float' });
    assert.equal(single.data.length, 1, 'one token array is one input');
    assert.deepEqual(single.data[0]!.embedding, tokens.data[0]!.embedding);
  });

  test('bad input is a 400 in the OpenAI shape naming the parameter', async () => {
    for (const [body, param] of [
      [{ model: 'm', input: '' }, 'input'],
      [{ model: 'm', input: [] }, 'input'],
      [{ model: 'm' }, 'input'],
      [{ input: 'x' }, 'model'],
      [{ model: 'm', input: 'x', dimensions: 0 }, 'dimensions'],
      [{ model: 'm', input: 'x', encoding_format: 'hex' }, 'encoding_format'],
    ] as const) {
      const error = await suite.client.embeddings.create(body as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, JSON.stringify(body));
      assert.equal(error.param, param);
    }
  });

  test('rerank orders documents by BM25 relevance with scores in [0, 1]', async () => {
    const documents = [
      'Bananas are yellow fruit rich in potassium.',
      'The Eiffel Tower is in Paris, the capital of France.',
      { text: 'Paris is the capital and largest city of France.' },
      'Tokyo is the capital of Japan.',
    ];
    const response = await request(`${suite.gw.url}/v1/rerank`, 'POST', {
      token: suite.gw.token,
      body: { model: 'sim-rerank', query: 'capital of France', documents, top_n: 3 },
    });
    assert.equal(response.status, 200);
    const { results, usage } = response.body;
    assert.equal(results.length, 3);
    assert.deepEqual(
      results
        .slice(0, 2)
        .map((r: { index: number }) => r.index)
        .sort(),
      [1, 2],
    );
    assert.equal(results[2].index, 3, 'a document sharing only "capital" ranks after both France documents');
    const scores = results.map((r: { relevance_score: number }) => r.relevance_score);
    assert.deepEqual(
      scores,
      [...scores].sort((x: number, y: number) => y - x),
    );
    assert.ok(scores.every((s: number) => s >= 0 && s <= 1));
    assert.equal(
      results[1].document.text,
      typeof documents[results[1].index] === 'string'
        ? documents[results[1].index]
        : (documents[results[1].index] as { text: string }).text,
    );
    assert.ok(usage.total_tokens > 0);
    const bare = await request(`${suite.gw.url}/v1/rerank`, 'POST', {
      token: suite.gw.token,
      body: { model: 'sim-rerank', query: 'bananas', documents, return_documents: false },
    });
    assert.equal(bare.body.results.length, 4);
    assert.equal(bare.body.results[0].index, 0);
    assert.equal('document' in bare.body.results[0], false);
    const missing = await request(`${suite.gw.url}/v1/rerank`, 'POST', { token: suite.gw.token, body: { model: 'm', query: 'q' } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.param, 'documents');
  });

  test('Cohere v2 path /v2/rerank: ranked indices and scores, no documents unless asked, api version 2', async () => {
    const documents = [
      'Carson City is the capital city of Nevada.',
      'Washington, D.C. is the capital of the United States.',
      'The capital city of France is Paris.',
    ];
    const response = await request(`${suite.gw.url}/v2/rerank`, 'POST', {
      token: suite.gw.token,
      body: { model: 'rerank-v3.5', query: 'What is the capital of the United States?', documents, top_n: 2 },
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.results.length, 2);
    assert.equal(response.body.results[0].index, 1);
    assert.deepEqual(Object.keys(response.body.results[0]).sort(), ['index', 'relevance_score']);
    assert.equal(response.body.meta.api_version.version, '2');
    assert.equal(response.body.meta.billed_units.search_units, 1);
  });

  test('each call is billed to the token', () => {
    const rows = suite.gw.gateway.context.db
      .prepare('SELECT endpoint, COUNT(*) AS n FROM usage_records GROUP BY endpoint ORDER BY endpoint')
      .all() as { endpoint: string; n: number }[];
    assert.ok(rows.find((row) => row.endpoint === '/v1/embeddings')!.n >= 6);
    assert.ok(rows.find((row) => row.endpoint === '/v1/rerank')!.n >= 2);
  });
});

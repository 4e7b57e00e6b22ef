// Integration tests: Gemini embeddings (:embedContent, :batchEmbedContents) through @google/genai in simulate, relayed to a Gemini channel, translated to an OpenAI channel, and the openai SDK's embeddings translated to a Gemini channel; the upstream is a second Gatehouse.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries, settle, usageRows } from '../helpers/relay.ts';

const TEXTS = ['the cat sat on the mat', 'a dog ran in the park', 'stock prices fell sharply'];

const geminiOf = (gateway: TestGateway) =>
  new GoogleGenAI({ apiKey: gateway.token, httpOptions: { baseUrl: gateway.url, apiVersion: 'v1beta' } });
const openaiOf = (gateway: TestGateway) => new OpenAI({ apiKey: gateway.token, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

/** The vectors a gateway's @google/genai client gets for `contents`. */
async function geminiVectors(gateway: TestGateway, model: string, contents: string | string[], dimensions?: number) {
  const answer = await geminiOf(gateway).models.embedContent({
    model,
    contents,
    ...(dimensions !== undefined && { config: { outputDimensionality: dimensions, taskType: 'RETRIEVAL_DOCUMENT' } }),
  });
  return answer.embeddings!.map((embedding) => embedding.values!);
}

/** The vectors the upstream simulator gives for `texts` through the OpenAI API (rounded to float32 like every answer). */
async function simulatedVectors(up: TestGateway, texts: string[], dimensions?: number) {
  const answer = await openaiOf(up).embeddings.create({
    model: 'sim-embed',
    input: texts,
    encoding_format: 'float',
    ...(dimensions !== undefined && { dimensions }),
  });
  return answer.data.map((item) => item.embedding);
}

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('Gemini embeddings', () => {
  let up: TestGateway;
  const channels: TestChannel[] = [];
  let front: TestGateway;
  before(async () => {
    up = await startGateway();
    front = await startGateway({ channels: memoryChannels(channels) });
  });
  after(async () => {
    await front.stop();
    await up.stop();
  });
  /** Points the front's one channel (`kind`) at the upstream for `emb-*` models, which it calls sim-embed. */
  const speak = (kind: 'gemini' | 'openai') =>
    channels.splice(0, channels.length, {
      name: `${kind}-up`,
      kind,
      baseUrl: kind === 'openai' ? `${up.url}/v1` : up.url,
      key: up.token,
      models: ['emb-one=sim-embed'],
    });

  test('simulated: one content gives one vector, several give one each in order, outputDimensionality is honoured', async () => {
    const [one] = await geminiVectors(up, 'gemini-embedding-001', TEXTS[0]!);
    assert.ok(one!.length > 0 && one!.every((value) => Number.isFinite(value)));
    const several = await geminiVectors(up, 'gemini-embedding-001', TEXTS, 64);
    assert.equal(several.length, 3);
    assert.ok(several.every((vector) => vector.length === 64));
    assert.ok(cosine(several[0]!, several[1]!) !== cosine(several[0]!, several[2]!), 'different texts get different vectors');
    // The raw :embedContent method answers {embedding: {values}}.
    const raw = await fetch(`${up.url}/v1beta/models/gemini-embedding-001:embedContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': up.token },
      body: JSON.stringify({ content: { parts: [{ text: TEXTS[0] }] }, outputDimensionality: 64 }),
    });
    assert.equal(raw.status, 200);
    assert.deepEqual(((await raw.json()) as { embedding: { values: number[] } }).embedding.values, several[0]);
    // Billed like OpenAI embeddings: by the input tokens, no output.
    await settle();
    const billed = usageRows(up).filter((row) => row.endpoint.startsWith('/v1beta/models:'));
    assert.deepEqual(
      billed.map((row) => [row.endpoint, row.model, row.output_tokens]),
      [
        ['/v1beta/models:batchEmbedContents', 'gemini-embedding-001', 0],
        ['/v1beta/models:batchEmbedContents', 'gemini-embedding-001', 0],
        ['/v1beta/models:embedContent', 'gemini-embedding-001', 0],
      ],
    );
    assert.ok(billed.every((row) => row.input_tokens > 0));
  });

  test('the model list advertises both methods, and both are served for the advertised model', async () => {
    const model = await geminiOf(up).models.get({ model: 'sim-embed' });
    assert.deepEqual(model.supportedActions, ['embedContent', 'batchEmbedContents']);
    assert.equal((await geminiVectors(up, 'sim-embed', 'advertised')).length, 1);
  });

  test('simulated: a request with no text is a 400 in Gemini shape', async () => {
    await assert.rejects(
      geminiOf(up).models.embedContent({ model: 'gemini-embedding-001', contents: [{ parts: [{ text: '' }] }] }),
      (error) => error instanceof ApiError && error.status === 400 && /INVALID_ARGUMENT/.test(error.message),
    );
  });

  test('relayed to a Gemini channel: the upstream embeds, under its own model name, and the vectors come back', async () => {
    speak('gemini');
    const vectors = await geminiVectors(front, 'emb-one', TEXTS, 32);
    assert.deepEqual(vectors, await simulatedVectors(up, TEXTS, 32));
    await settle();
    const [entry] = await journalEntries(up, { prefix: '/v1beta/models/sim-embed:batchEmbedContents' });
    assert.ok(entry, 'the upstream answered the batch');
    const sent = JSON.parse(entry.request.text);
    assert.deepEqual(
      sent.requests.map((request: { model: string }) => request.model),
      TEXTS.map(() => 'models/sim-embed'),
    );
  });

  test('a Gemini client before an OpenAI channel: sent as POST /embeddings, answered as Gemini vectors', async () => {
    speak('openai');
    const vectors = await geminiVectors(front, 'emb-one', TEXTS.slice(0, 2), 48);
    assert.deepEqual(vectors, await simulatedVectors(up, TEXTS.slice(0, 2), 48));
    await settle();
    const [entry] = (await journalEntries(up, { path: '/v1/embeddings' })).filter((item) =>
      JSON.parse(item.request.text).input.includes(TEXTS[1]),
    );
    assert.ok(entry, 'the upstream answered POST /v1/embeddings for the Gemini client');
    const sent = JSON.parse(entry.request.text);
    assert.equal(sent.model, 'sim-embed');
    assert.deepEqual(sent.input, TEXTS.slice(0, 2));
    assert.equal(sent.dimensions, 48);
  });

  test("the openai SDK's embeddings.create before a Gemini channel: sent as :batchEmbedContents, answered in OpenAI's shape", async () => {
    speak('gemini');
    const answer = await openaiOf(front).embeddings.create({ model: 'emb-one', input: TEXTS, dimensions: 16 });
    assert.equal(answer.model, 'emb-one');
    assert.deepEqual(
      answer.data.map((item) => item.index),
      [0, 1, 2],
    );
    const expected = await simulatedVectors(up, TEXTS, 16);
    answer.data.forEach((item, i) => assert.deepEqual(item.embedding, expected[i]));
    assert.ok(answer.usage.prompt_tokens > 0);
    await settle();
    const entries = await journalEntries(up, { prefix: '/v1beta/models/sim-embed:batchEmbedContents' });
    const sent = entries.map((entry) => JSON.parse(entry.request.text)).find((body) => body.requests[0].outputDimensionality === 16);
    assert.ok(sent, 'the upstream answered :batchEmbedContents for the OpenAI client');
    assert.deepEqual(
      sent.requests.map((request: { content: { parts: { text: string }[] } }) => request.content.parts[0]!.text),
      TEXTS,
    );
  });

  test('token-id inputs cannot go to a Gemini channel: a 400 in OpenAI shape naming input, nothing sent upstream', async () => {
    speak('gemini');
    await settle();
    const before = (await journalEntries(up, { prefix: '/v1beta/models/sim-embed:batchEmbedContents' })).length;
    await assert.rejects(
      openaiOf(front).embeddings.create({ model: 'emb-one', input: [[1, 2, 3]] }),
      (error) => error instanceof OpenAI.BadRequestError && error.param === 'input' && /token ids/.test(error.message),
    );
    await settle();
    assert.equal((await journalEntries(up, { prefix: '/v1beta/models/sim-embed:batchEmbedContents' })).length, before);
  });
});

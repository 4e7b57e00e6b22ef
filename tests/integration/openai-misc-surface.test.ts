// Integration tests through the official openai SDK: moderations (trigger words), image variations (a real PNG in and out), model retrieve for every listed model and delete, and unknown paths answered before their body is read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI, { toFile } from 'openai';
import { decodePng, encodePng } from '../../electron/gateway/providers/simulate/png.ts';
import { MODERATION_CATEGORIES } from '../../electron/gateway/providers/types.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

describe('moderations, image variations, models, unknown paths', () => {
  const suite = useOpenAIGateway();

  test('moderations: a string with only required parameters; strings and multimodal parts with every parameter', async () => {
    const { client } = suite;
    const plain = await client.moderations.create({ input: 'What a lovely day.' });
    assert.match(plain.id, /^modr/);
    assert.equal(plain.model, 'omni-moderation-latest');
    assert.equal(plain.results.length, 1);
    const [result] = plain.results;
    assert.equal(result!.flagged, false);
    assert.deepEqual(Object.keys(result!.categories).sort(), [...MODERATION_CATEGORIES].sort());
    assert.deepEqual(Object.keys(result!.category_scores).sort(), [...MODERATION_CATEGORIES].sort());
    assert.deepEqual(result!.category_applied_input_types.violence, ['text']);
    const many = await client.moderations.create({ model: 'omni-moderation-2024-09-26', input: ['I will kill you', 'hello'] });
    assert.equal(many.model, 'omni-moderation-2024-09-26');
    assert.deepEqual(
      many.results.map((r) => r.flagged),
      [true, false],
    );
    assert.equal(many.results[0]!.categories.violence, true);
    assert.ok(many.results[0]!.category_scores.violence >= 0.9);
    const parts = await client.moderations.create({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'look at this' },
        { type: 'image_url', image_url: { url: 'https://example.com/gruesome.png' } },
      ],
    });
    assert.equal(parts.results.length, 1, 'an array of parts is one input');
    assert.equal(parts.results[0]!.categories['violence/graphic'], true);
    assert.deepEqual(parts.results[0]!.category_applied_input_types['violence/graphic'], ['text', 'image']);
    const missing = await client.moderations.create({} as never).catch((e: unknown) => e);
    assert.ok(missing instanceof OpenAI.BadRequestError);
    assert.equal(missing.param, 'input');
  });

  test('image variations: a PNG in, PNGs out (b64 and url), with only required parameters and with all of them', async () => {
    const { client } = suite;
    const rgba = new Uint8Array(64 * 64 * 4).fill(180);
    const image = () => toFile(encodePng({ width: 64, height: 64, rgba }), 'in.png', { type: 'image/png' });
    const minimal = await client.images.createVariation({ image: await image() });
    assert.equal(minimal.data!.length, 1);
    const url = minimal.data![0]!.url!;
    const fetched = await fetch(url);
    assert.equal(fetched.headers.get('content-type'), 'image/png');
    const first = decodePng(Buffer.from(await fetched.arrayBuffer()));
    assert.deepEqual([first.width, first.height], [1024, 1024]);
    const full = await client.images.createVariation({
      image: await image(),
      model: 'dall-e-2',
      n: 2,
      response_format: 'b64_json',
      size: '256x256',
      user: 'user-1',
    });
    assert.equal(full.data!.length, 2);
    const [a, b] = full.data!.map((item) => Buffer.from(item.b64_json!, 'base64'));
    assert.notDeepEqual(a, b, 'each variation differs');
    const decoded = decodePng(a!);
    assert.deepEqual([decoded.width, decoded.height], [256, 256]);
    const badSize = await client.images.createVariation({ image: await image(), size: '300x300' as never }).catch((e: unknown) => e);
    assert.ok(badSize instanceof OpenAI.BadRequestError);
    assert.equal(badSize.param, 'size');
    const notPng = await client.images
      .createVariation({ image: await toFile(Buffer.from('not a png'), 'x.png', { type: 'image/png' }) })
      .catch((e: unknown) => e);
    assert.ok(notPng instanceof OpenAI.BadRequestError);
  });

  test('every listed model is retrieved in every shape; delete is refused as for a model you do not own', async () => {
    const { client, gw } = suite;
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    const google = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    for (const id of ids) {
      const openaiModel = await client.models.retrieve(id);
      assert.deepEqual([openaiModel.id, openaiModel.object], [id, 'model']);
      const anthropicModel = await anthropic.models.retrieve(id);
      assert.deepEqual([anthropicModel.id, anthropicModel.type], [id, 'model']);
      const geminiModel = await google.models.get({ model: id });
      assert.equal(geminiModel.name, `models/${id}`);
    }
    const refused = await client.models.delete('sim-chat').catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.PermissionDeniedError);
    assert.equal(refused.status, 403);
    assert.match(refused.message, /permission/);
  });

  test('an unknown path is the protocol 404 before its body is read, multipart included', async () => {
    const { gw } = suite;
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(1024, 1)]), 'x.bin');
    for (const body of [form, '{not json']) {
      const response = await fetch(`${gw.url}/v1/not-a-route`, { method: 'POST', headers: { authorization: `Bearer ${gw.token}` }, body });
      assert.equal(response.status, 404);
      const answer = (await response.json()) as { error: { message: string } };
      assert.match(answer.error.message, /^Unknown endpoint: POST \/v1\/not-a-route/);
    }
    const gemini = await fetch(`${gw.url}/v1beta/nothing-here`, { method: 'POST', body: form });
    assert.equal(gemini.status, 404);
    assert.equal(((await gemini.json()) as { error: { status: string } }).error.status, 'NOT_FOUND');
  });
});

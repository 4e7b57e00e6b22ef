// Integration tests of fixtures beyond plain chat text: reasoning, usage overrides, structured JSON and a stream cut after N events; and the non-chat endpoints (embeddings per input, images and speech from files, transcription, moderation, rerank) through the openai SDK.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

describe('fixtures for every kind of answer', () => {
  const dirs = tempDirs();
  let gw: TestGateway;
  let openai: OpenAI;
  let png: Buffer;
  let wav: Buffer;
  before(async () => {
    // The media files a fixture answers with: made by a plain simulated gateway first.
    const plain = await startGateway();
    const maker = new OpenAI({ baseURL: `${plain.url}/v1`, apiKey: plain.token, maxRetries: 0 });
    png = Buffer.from(
      (await maker.images.generate({ model: 'gpt-image-1', prompt: 'a red square', size: '1024x1024' })).data![0]!.b64_json!,
      'base64',
    );
    wav = Buffer.from(
      await (
        await maker.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'simulated words', response_format: 'wav' })
      ).arrayBuffer(),
    );
    await plain.stop();

    const dir = dirs.fresh();
    writeFileSync(path.join(dir, 'square.png'), png);
    writeFileSync(path.join(dir, 'voice.wav'), wav);
    writeFileSync(
      path.join(dir, 'all.json'),
      JSON.stringify([
        {
          match: { user: 'think first' },
          response: { reasoning: 'The user wants thought.', text: 'Thought about it.', usage: { input_tokens: 11, output_tokens: 7 } },
        },
        { match: { user: 'give json', response_format: 'json_object' }, response: { json: { ok: true, items: [1, 2] } } },
        { match: { user: 'cut me' }, response: { text: 'one two three four five six seven eight', stream: { cut_after: 3 } } },
        {
          match: { endpoint: 'embeddings' },
          response: {
            embeddings: [
              [1, 0],
              [0, 1],
            ],
          },
        },
        { match: { endpoint: 'images', input: 'square' }, response: { image: 'square.png' } },
        { match: { endpoint: 'speech' }, response: { audio: 'voice.wav' } },
        { match: { endpoint: 'transcription' }, response: { transcript: 'scripted transcript' } },
        { match: { endpoint: 'moderations', input: 'hurt' }, response: { moderation: { categories: ['violence'] } } },
        {
          match: { endpoint: 'rerank' },
          response: {
            rerank: [
              { index: 0, relevance: 0.1 },
              { index: 1, relevance: 0.9 },
            ],
          },
        },
      ]),
    );
    gw = await startGateway({ fixtures: [dir] });
    openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  });
  after(async () => {
    await gw.stop();
    dirs.removeAll();
  });

  test('reasoning where the protocol has it, and usage as scripted', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    const message = await anthropic.messages.create({
      model: 'claude-x',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'think first' }],
    });
    const thinking = message.content.find((block) => block.type === 'thinking');
    assert.ok(thinking && thinking.type === 'thinking');
    assert.equal(thinking.thinking, 'The user wants thought.');
    assert.equal(message.content.find((block) => block.type === 'text')?.text, 'Thought about it.');
    assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [11, 7]);
    const chat = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'think first' }] });
    assert.deepEqual([chat.usage?.prompt_tokens, chat.usage?.completion_tokens], [11, 7]);
  });

  test('structured JSON, matched on the response format asked', async () => {
    const chat = await openai.chat.completions.create({
      model: 'gpt-4o',
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'give json' }],
    });
    assert.deepEqual(JSON.parse(chat.choices[0]!.message.content!), { ok: true, items: [1, 2] });
  });

  test('a stream cut after 3 events ends with an error, not a normal end', async () => {
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'cut me' }] });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof Error, 'the stream fails');
    assert.equal(text, 'one two three');
  });

  test('embeddings: one vector per input, in turn', async () => {
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b', 'c'], encoding_format: 'float' });
    assert.deepEqual(
      result.data.map((item) => item.embedding),
      [
        [1, 0],
        [0, 1],
        [1, 0],
      ],
    );
  });

  test('images and speech answer the files named, transcription its text', async () => {
    const image = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a square please', size: '1024x1024' });
    assert.deepEqual(Buffer.from(image.data![0]!.b64_json!, 'base64'), png);
    const speech = Buffer.from(
      await (await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'anything', response_format: 'wav' })).arrayBuffer(),
    );
    assert.deepEqual(speech, wav);
    const transcript = await openai.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(wav, 'voice.wav') });
    assert.equal(transcript.text, 'scripted transcript');
  });

  test('moderation flags the categories given; rerank orders by the relevance given', async () => {
    const moderation = await openai.moderations.create({ model: 'omni-moderation-latest', input: 'hurt someone' });
    assert.equal(moderation.results[0]!.flagged, true);
    assert.equal(moderation.results[0]!.categories.violence, true);
    assert.equal(moderation.results[0]!.categories.hate, false);
    const reranked = await request(`${gw.url}/v1/rerank`, 'POST', {
      token: gw.token,
      body: { model: 'rerank-x', query: 'q', documents: ['first', 'second'] },
    });
    assert.equal(reranked.status, 200, JSON.stringify(reranked.body));
    assert.deepEqual(
      reranked.body.results.map((result: { index: number; relevance_score: number }) => [result.index, result.relevance_score]),
      [
        [1, 0.9],
        [0, 0.1],
      ],
    );
  });
});

// Unit tests of Fetch models' reading: each kind's list shape, the names a list may hold, and how a fetched list joins a channel's models.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  listUpstreamModels,
  mergedModels,
  MODEL_LIST_BYTES_LIMIT,
  modelIdsOf,
} from '../../../electron/gateway/services/channel-model-fetch.ts';
import type { RelayChannel } from '../../../electron/gateway/providers/types.ts';
import { answerTextOf } from '../../../electron/gateway/services/channel-probe.ts';

test('model ids from OpenAI and Anthropic data[].id, Gemini models[].name (chat models only); odd names left out', () => {
  assert.deepEqual(
    modelIdsOf('openai', { data: [{ id: 'gpt-5.4' }, { id: 'gpt-5.4' }, { id: 'a b' }, { id: 'x,y' }, { id: 7 }, { id: 'qwen3:8b' }] }),
    ['gpt-5.4', 'qwen3:8b'],
  );
  assert.deepEqual(modelIdsOf('anthropic', { data: [{ id: 'claude-sonnet-5', type: 'model' }] }), ['claude-sonnet-5']);
  assert.deepEqual(
    modelIdsOf('gemini', {
      models: [
        { name: 'models/gemini-3.5-flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
        { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
      ],
    }),
    ['gemini-3.5-flash'],
  );
  assert.deepEqual(modelIdsOf('openai', { error: 'nope' }), []);
});

test('a fetched list replaces plain names and *, and keeps renames', () => {
  assert.equal(mergedModels('*', ['a', 'b']), 'a, b');
  assert.equal(mergedModels('fast=gpt-5.4-mini, old, *', ['gpt-5.4', 'fast']), 'fast=gpt-5.4-mini, gpt-5.4');
});

test('the first words of a test answer in each wire', () => {
  const long = 'word '.repeat(40);
  assert.equal(answerTextOf(JSON.stringify({ choices: [{ message: { content: 'Hi  there\n!' } }] })), 'Hi there !');
  assert.equal(answerTextOf(JSON.stringify({ choices: [{ message: { content: '', reasoning_content: 'thinking' } }] })), 'thinking');
  assert.equal(answerTextOf(JSON.stringify({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello' }] }] })), 'Hello');
  assert.equal(answerTextOf(JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'Hey' }] })), 'Hey');
  assert.equal(answerTextOf(JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Hallo' }] } }] })), 'Hallo');
  assert.equal(answerTextOf(JSON.stringify({ choices: [{ message: { content: long } }] })).length, 81);
  assert.equal(answerTextOf('not json'), '');
});

test('an upstream listing ids that hold the channel key (raw, percent-encoded, base64) gets them left out of the list', async () => {
  const key = 'sk-listed-key-0123456789abcdef';
  const ids = ['gpt-5.4', key, `prefix-${encodeURIComponent(key).replace(/-/g, '%2D')}`, Buffer.from(key).toString('base64'), 'qwen3:8b'];
  const answer = JSON.stringify({ data: ids.map((id) => ({ id })) });
  const channel = { kind: 'openai', baseUrl: 'https://upstream.example/v1', key, timeoutMs: 5_000, headers: {} } as unknown as RelayChannel;
  const listed = await listUpstreamModels(channel, async () => new Response(answer, { headers: { 'content-type': 'application/json' } }));
  assert.deepEqual(listed, ['gpt-5.4', 'qwen3:8b']);
});

test('a refusal whose text is cut inside the channel key shows no start of it: the key is hidden before the cut', async () => {
  const key = 'sk-cut-key-Hx7Qz9fE2MnB4vR8tYwP0aS3dG';
  // Not JSON: its first 200 characters are the message, and they end half way into the key.
  const body = `${'y'.repeat(200 - 18)}${key} and more`;
  const channel = { kind: 'openai', baseUrl: 'https://upstream.example/v1', key, timeoutMs: 5_000, headers: {} } as unknown as RelayChannel;
  const refused = await listUpstreamModels(channel, async () => new Response(body, { status: 400 })).catch((error: unknown) => error);
  assert.ok(refused instanceof Error);
  assert.match(refused.message, /HTTP 400/);
  assert.equal(refused.message.includes(key.slice(0, 18)), false, refused.message);
});

test('a refusal read only up to its limit, which ends inside the channel key, shows no start of it', async () => {
  const key = 'sk-cut-key-Hx7Qz9fE2MnB4vR8tYwP0aS3dG';
  // Spaces up to the read limit, which falls half way into the key: the message is the text trimmed, the key's start last.
  const body = `${' '.repeat(MODEL_LIST_BYTES_LIMIT - 18)}${key} and more`;
  const channel = { kind: 'openai', baseUrl: 'https://upstream.example/v1', key, timeoutMs: 5_000, headers: {} } as unknown as RelayChannel;
  const refused = await listUpstreamModels(channel, async () => new Response(body, { status: 401 })).catch((error: unknown) => error);
  assert.ok(refused instanceof Error);
  assert.match(refused.message, /HTTP 401/);
  assert.equal(refused.message.includes(key.slice(0, 18)), false, refused.message);
});

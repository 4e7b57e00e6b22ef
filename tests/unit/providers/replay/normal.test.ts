// Unit tests of a request's normal form: volatile fields and ignored paths do not change the key, any other field does, and one chat reads the same from every protocol.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropPath, mapPath } from '../../../../electron/gateway/providers/replay/json-paths.ts';
import { normalRequest } from '../../../../electron/gateway/providers/replay/normal.ts';
import type { RecordedCall } from '../../../../electron/gateway/providers/types.ts';

const openaiChat = (body: Record<string, unknown>): RecordedCall => ({
  protocol: 'openai',
  method: 'POST',
  path: '/v1/chat/completions',
  endpoint: '/v1/chat/completions',
  model: null,
  body,
  stream: false,
});
const ask = { model: 'gpt', messages: [{ role: 'user', content: 'hello' }] };

test('volatile fields and ignored paths leave the key as it was; other fields change it', () => {
  const key = normalRequest(openaiChat(ask)).key;
  assert.equal(normalRequest(openaiChat({ ...ask, user: 'u', metadata: { a: '1' }, stream_options: { include_usage: true } })).key, key);
  assert.notEqual(normalRequest(openaiChat({ ...ask, temperature: 0.2 })).key, key);
  assert.equal(
    normalRequest(openaiChat({ ...ask, temperature: 0.2 }), ['temperature']).key,
    normalRequest(openaiChat(ask), ['temperature']).key,
  );
  assert.notEqual(normalRequest({ ...openaiChat(ask), stream: true }).key, key);
});

test('a chat reads the same from OpenAI, Anthropic and Gemini clients', () => {
  const openai = normalRequest(openaiChat({ ...ask, max_tokens: 20 }));
  const anthropic = normalRequest({
    protocol: 'anthropic',
    method: 'POST',
    path: '/v1/messages',
    endpoint: '/v1/messages',
    model: null,
    body: { model: 'gpt', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] },
    stream: false,
  });
  const gemini = normalRequest({
    protocol: 'gemini',
    method: 'POST',
    path: '/v1beta/models/gpt:generateContent',
    endpoint: '/v1beta/models:generateContent',
    model: null,
    body: { contents: [{ role: 'user', parts: [{ text: 'hello' }] }], generationConfig: { maxOutputTokens: 20 } },
    stream: false,
  });
  assert.equal(anthropic.key, openai.key);
  assert.equal(gemini.key, openai.key);
});

test('JSON paths: fields, indexes and every item; a malformed path is refused', () => {
  const value = { a: [{ b: 1, c: 2 }, { b: 3 }], d: 'x' };
  assert.deepEqual(dropPath(value, '$.a[*].b'), { a: [{ c: 2 }, {}], d: 'x' });
  assert.deepEqual(
    mapPath(value, 'a[1].b', () => 'r'),
    { a: [{ b: 1, c: 2 }, { b: 'r' }], d: 'x' },
  );
  assert.equal(dropPath(value, '$.missing'), value, 'nothing named: the same value');
  assert.throws(() => dropPath(value, 'a[x'), /is not a JSON path/);
});

// Unit tests of the simulated text engine: the token estimate, stream pieces, determinism, tools, JSON output and limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulateChat } from '../../../electron/gateway/providers/simulate/text/engine.ts';
import { valueFor } from '../../../electron/gateway/providers/simulate/text/json-schema-value.ts';
import { seededRandom } from '../../../electron/gateway/providers/simulate/text/seed.ts';
import { streamPieces } from '../../../electron/gateway/providers/simulate/text/stream-pieces.ts';
import {
  countTokens,
  estimateInputTokens,
  REQUEST_OVERHEAD,
  TURN_OVERHEAD,
} from '../../../electron/gateway/providers/simulate/text/tokens.ts';
import type { ChatRequest } from '../../../electron/gateway/providers/simulate/text/types.ts';
import { validateAgainstSchema } from '../../helpers/json-schema-check.ts';

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'sim-chat', turns: [{ role: 'user', text }], ...extra });

test('the token estimate counts words and other visible characters; stream pieces join back to the text', () => {
  assert.equal(countTokens('Hello, world!'), 4);
  assert.equal(countTokens('  '), 0);
  assert.equal(countTokens('naïve café 42'), 3);
  for (const text of ['Hello, world!  ', ' leading space', 'a\nb\n\n', '{"a": [1, 2]}', '']) {
    const pieces = streamPieces(text);
    assert.equal(pieces.join(''), text);
    if (text.trim() !== '') assert.equal(pieces.length, countTokens(text));
  }
  assert.equal(estimateInputTokens(ask('one two')), REQUEST_OVERHEAD + TURN_OVERHEAD + 2);
  assert.equal(estimateInputTokens({ ...ask('one two'), system: 'be kind' }), REQUEST_OVERHEAD + 2 * TURN_OVERHEAD + 4);
});

test('answers are deterministic, vary with seed and model, and usage matches the estimate', () => {
  const a = simulateChat(ask('What is a monad?'));
  assert.deepEqual(simulateChat(ask('What is a monad?')), a);
  assert.notEqual(simulateChat(ask('What is a monad?', { seed: 3 })).choices[0]!.text, a.choices[0]!.text);
  assert.notEqual(simulateChat(ask('What is a monad?', { model: 'other' })).choices[0]!.text, a.choices[0]!.text);
  assert.equal(a.usage.outputTokens, countTokens(a.choices[0]!.text));
  assert.equal(a.usage.inputTokens, estimateInputTokens(ask('What is a monad?')));
});

test('stop cuts before the earliest stop sequence; maxTokens cuts with length', () => {
  const echo = (extra: Partial<ChatRequest>) => simulateChat(ask('alpha beta gamma delta', { model: 'sim-echo', ...extra })).choices[0]!;
  assert.deepEqual(echo({ stop: ['delta', 'beta'] }), { text: 'alpha ', toolCalls: [], finishReason: 'stop_sequence', stopSequence: 'beta' });
  assert.deepEqual(echo({ maxTokens: 3 }), { text: 'alpha beta gamma', toolCalls: [], finishReason: 'length' });
  assert.deepEqual(echo({ maxTokens: 4 }), { text: 'alpha beta gamma delta', toolCalls: [], finishReason: 'stop' });
});

test('tools: named in the message or forced; none after a tool result or with toolChoice none', () => {
  const tools = [{ name: 'lookup_order', parameters: { type: 'object', properties: { id: { type: 'integer', minimum: 1000 } }, required: ['id'] } }];
  const called = simulateChat(ask('please lookup order 7', { tools })).choices[0]!;
  assert.equal(called.finishReason, 'tool_calls');
  assert.equal(called.toolCalls[0]!.name, 'lookup_order');
  assert.deepEqual(validateAgainstSchema(JSON.parse(called.toolCalls[0]!.arguments), tools[0]!.parameters), []);
  assert.equal(simulateChat(ask('hi', { tools })).choices[0]!.finishReason, 'stop');
  assert.equal(simulateChat(ask('hi', { tools, toolChoice: 'required' })).choices[0]!.finishReason, 'tool_calls');
  assert.equal(simulateChat(ask('lookup_order', { tools, toolChoice: 'none' })).choices[0]!.finishReason, 'stop');
  const after = simulateChat({
    model: 'sim-chat',
    tools,
    toolChoice: 'required',
    turns: [
      { role: 'user', text: 'lookup_order' },
      { role: 'assistant', text: '', toolCalls: [called.toolCalls[0]!] },
      { role: 'tool', toolCallId: called.toolCalls[0]!.id, name: 'lookup_order', text: 'shipped' },
    ],
  }).choices[0]!;
  assert.equal(after.finishReason, 'stop');
  assert.match(after.text, /lookup_order result is shipped/);
});

test('schema values satisfy nested, referenced, enumerated and bounded schemas', () => {
  const schema = {
    type: 'object',
    properties: {
      kind: { enum: ['a', 'b'] },
      count: { type: 'integer', minimum: 5, maximum: 6 },
      ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      when: { type: 'string', format: 'date-time' },
      items: { type: 'array', minItems: 3, items: { $ref: '#/definitions/item' } },
      maybe: { anyOf: [{ type: 'null' }, { type: 'string', maxLength: 3 }] },
      fixed: { const: 42 },
    },
    required: ['kind', 'count', 'ratio', 'when', 'items', 'maybe', 'fixed'],
    additionalProperties: false,
    definitions: { item: { type: 'object', properties: { name: { type: 'string', minLength: 12 } }, required: ['name'] } },
  };
  for (let seed = 0; seed < 25; seed++) {
    const value = valueFor(schema, seededRandom(seed));
    assert.deepEqual(validateAgainstSchema(value, schema), [], JSON.stringify(value));
  }
});

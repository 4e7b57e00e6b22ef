// Unit tests of the Responses API item translation: input normalisation and items to neutral turns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { itemsToTurns, normalizeInput } from '../../../electron/gateway/protocols/responses/inbound/items.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';

test('a string input is one user message item; items without type are messages', () => {
  assert.deepEqual(normalizeInput('hi'), [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]);
  assert.deepEqual(normalizeInput([{ role: 'user', content: 'x' }]), [{ type: 'message', role: 'user', content: 'x' }]);
});

test('messages, function calls and their outputs become turns; a message and its calls form one assistant turn', () => {
  const turns = itemsToTurns([
    { type: 'message', role: 'developer', content: 'Rules.' },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'Weather?' },
        { type: 'input_image', image_url: 'x' },
      ],
    },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    { type: 'reasoning', summary: [] },
    { type: 'function_call_output', call_id: 'call_1', output: '{"t":3}' },
  ]);
  assert.deepEqual(turns, [
    { role: 'system', text: 'Rules.' },
    {
      role: 'user',
      text: 'Weather?\n[image]',
      parts: [
        { type: 'text', text: 'Weather?' },
        { type: 'image', url: 'x' },
      ],
    },
    { role: 'assistant', text: 'Checking.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
    { role: 'tool', toolCallId: 'call_1', name: 'get_weather', text: '{"t":3}' },
  ]);
});

test('unsupported item types are a clear 400', () => {
  assert.throws(
    () => itemsToTurns([{ type: 'computer_call_output', call_id: 'c', output: {} }]),
    (error: unknown) => error instanceof GatewayError && /computer_call_output/.test(error.message),
  );
});

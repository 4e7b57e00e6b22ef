// Unit tests of the Anthropic Messages request translator: validation and the neutral turns it produces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMessagesBody } from '../../../electron/gateway/protocols/anthropic/inbound/request.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';

const rejects = (body: unknown, param: RegExp) =>
  assert.throws(
    () => parseMessagesBody(body),
    (error: unknown) => error instanceof GatewayError && error.kind === 'invalid_request' && param.test(error.param ?? ''),
  );

test('model, max_tokens and a non-empty messages list are required', () => {
  rejects({ max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, /^model$/);
  rejects({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, /^max_tokens$/);
  rejects({ model: 'm', max_tokens: 0, messages: [{ role: 'user', content: 'hi' }] }, /^max_tokens$/);
  rejects({ model: 'm', max_tokens: 5, messages: [] }, /^messages$/);
  rejects({ model: 'm', max_tokens: 5, messages: [{ role: 'robot', content: 'hi' }] }, /role/);
  assert.equal(
    parseMessagesBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { countOnly: true }).chat.maxTokens,
    undefined,
  );
});

test('system blocks, tool_use and tool_result blocks become neutral turns with named tool results', () => {
  const { chat, stream } = parseMessagesBody({
    model: 'claude',
    max_tokens: 100,
    stream: true,
    system: [
      { type: 'text', text: 'Be kind.' },
      { type: 'text', text: 'Be brief.' },
    ],
    stop_sequences: ['END'],
    tools: [
      { name: 'lookup', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search' },
    ],
    tool_choice: { type: 'tool', name: 'lookup' },
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Find it' },
          { type: 'image', source: { type: 'base64', data: '' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 1 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'found' }] }] },
    ],
  });
  assert.equal(stream, true);
  assert.equal(chat.system, 'Be kind.\nBe brief.');
  assert.deepEqual(chat.stop, ['END']);
  assert.deepEqual(chat.tools, [{ name: 'lookup', parameters: { type: 'object' } }]);
  assert.deepEqual(chat.toolChoice, { name: 'lookup' });
  assert.deepEqual(chat.turns, [
    { role: 'user', text: 'Find it\n[image]' },
    { role: 'assistant', text: 'Looking.', toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: '{"q":1}' }] },
    { role: 'tool', toolCallId: 'toolu_1', name: 'lookup', text: 'found' },
  ]);
});

test('tool_choice must name a declared tool; any needs tools', () => {
  const base = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
  rejects({ ...base, tool_choice: { type: 'tool', name: 'ghost' } }, /tool_choice/);
  rejects({ ...base, tool_choice: { type: 'any' } }, /tool_choice/);
  assert.equal(parseMessagesBody({ ...base, tool_choice: { type: 'none' } }).chat.toolChoice, 'none');
});

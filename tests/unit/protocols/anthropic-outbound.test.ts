// Unit tests of the Anthropic outbound codec on the shapes of the Messages API reference: requests written, answers and event streams read, thinking signatures kept across turns.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toAnthropicMessage } from '../../../electron/gateway/protocols/anthropic/inbound/message.ts';
import { parseMessagesBody } from '../../../electron/gateway/protocols/anthropic/inbound/request.ts';
import { anthropicOutbound } from '../../../electron/gateway/protocols/anthropic/outbound/codec.ts';
import type { ChatRequest } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { collectChat, type ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** A thinking-enabled tool-use stream as the Messages API reference shows it. */
const STREAM = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-x',
      stop_reason: null,
      usage: { input_tokens: 472, cache_read_input_tokens: 100, output_tokens: 2 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I need the weather tool.' } },
  {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
  },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me check.' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} },
  },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"location": "San Fra' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'ncisco, CA"}' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } },
  { type: 'message_stop' },
];

describe('anthropic outbound', () => {
  test('a stream with thinking, text and a tool call becomes neutral deltas with the signature and usage', async () => {
    const result = await collectChat(anthropicOutbound.deltas(from(STREAM)));
    const choice = result.choices[0]!;
    assert.deepEqual(choice.reasoning, [
      { text: 'I need the weather tool.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds', origin: 'anthropic' },
    ]);
    assert.equal(choice.text, 'Let me check.');
    assert.deepEqual(choice.toolCalls, [
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location": "San Francisco, CA"}' },
    ]);
    assert.equal(choice.finishReason, 'tool_calls');
    assert.deepEqual(result.usage, { inputTokens: 572, outputTokens: 89, cachedInputTokens: 100 });
  });

  test('an error event ends the deltas with an error carrying its status', async () => {
    const events = [STREAM[0], { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }];
    const seen: ChatDelta[] = [];
    await assert.rejects(
      (async () => {
        for await (const delta of anthropicOutbound.deltas(from(events))) seen.push(delta);
      })(),
      (error: { kind?: string; status?: number; message?: string }) =>
        error.kind === 'overloaded' && error.status === 529 && error.message === 'Overloaded',
    );
  });

  test('a whole Message with redacted thinking and a refusal', () => {
    const result = anthropicOutbound.result({
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
        { type: 'text', text: 'I cannot help with that.' },
      ],
      stop_reason: 'refusal',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 7 },
    });
    assert.equal(result.choices[0]!.finishReason, 'content_filter');
    assert.deepEqual(result.choices[0]!.reasoning, [{ text: '', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a', origin: 'anthropic' }]);
  });

  test('a multi-turn tool loop with thinking: the signed thinking goes back before the tool call, foreign reasoning is dropped', () => {
    const request: ChatRequest = {
      model: 'm',
      system: 'sys',
      turns: [
        { role: 'system', text: 'late rule' },
        {
          role: 'user',
          text: 'weather?',
          parts: [
            { type: 'text', text: 'weather?' },
            { type: 'image', url: 'https://example.com/sky.png' },
          ],
        },
        {
          role: 'assistant',
          text: '',
          reasoning: [
            { text: 'think', signature: 'SIG', origin: 'anthropic' },
            { text: 'gemini thought', signature: 'GSIG', origin: 'gemini' },
          ],
          toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"location":"SF"}' }],
        },
        { role: 'tool', toolCallId: 'toolu_1', text: 'boom', isError: true },
        { role: 'user', text: 'and tomorrow?' },
      ],
      reasoning: { budgetTokens: 2000 },
      temperature: 0.3,
      maxTokens: 1000,
      tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
      toolChoice: 'required',
      parallelToolCalls: false,
    };
    const body = anthropicOutbound.request(request, { model: 'claude-x', stream: true }) as Record<string, any>;
    assert.equal(body['system'], 'sys\n\nlate rule');
    assert.equal(body['max_tokens'], 2001, 'above the thinking budget');
    assert.deepEqual(body['thinking'], { type: 'enabled', budget_tokens: 2000 });
    assert.equal(body['temperature'], undefined, 'Anthropic refuses a temperature with thinking');
    assert.deepEqual(body['tool_choice'], { type: 'any', disable_parallel_tool_use: true });
    assert.equal(body['stream'], true);
    assert.deepEqual(body['messages'], [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'weather?' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/sky.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'think', signature: 'SIG' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'SF' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'boom', is_error: true },
          { type: 'text', text: 'and tomorrow?' },
        ],
      },
    ]);
  });
});

describe('anthropic inbound keeps reasoning across turns', () => {
  test('foreign signatures go out marked in thinking blocks and come back with their origin; tool ids carry Gemini signatures', () => {
    const message = toAnthropicMessage(
      {
        choices: [
          {
            text: 'ok',
            toolCalls: [{ id: 'call_9', name: 'f', arguments: '{}', thoughtSignature: 'TS/9+=' }],
            finishReason: 'tool_calls',
            reasoning: [{ text: 'thought', signature: 'GSIG', origin: 'gemini' }],
          },
        ],
        usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4 },
      },
      'm',
      'msg_x',
    );
    assert.equal(message.usage.input_tokens, 6);
    assert.equal(message.usage.cache_read_input_tokens, 4);
    const parsed = parseMessagesBody({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: (message.content[2] as { id: string }).id, content: 'r' }] },
      ],
    });
    const assistant = parsed.chat.turns[1]!;
    assert.equal(assistant.role, 'assistant');
    if (assistant.role !== 'assistant') return;
    assert.deepEqual(assistant.reasoning, [{ text: 'thought', signature: 'GSIG', origin: 'gemini' }]);
    assert.equal(assistant.toolCalls![0]!.thoughtSignature, 'TS/9+=');
    const tool = parsed.chat.turns[2]!;
    assert.equal(tool.role === 'tool' && tool.toolCallId, assistant.toolCalls![0]!.id, 'the result still names its call');
  });
});

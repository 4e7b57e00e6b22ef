// Unit tests of the stream builders: Gemini chunks for several candidates and tool calls, Anthropic events for text plus tool_use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toAnthropicMessage } from '../../../electron/gateway/protocols/anthropic/inbound/message.ts';
import { anthropicStreamEvents } from '../../../electron/gateway/protocols/anthropic/inbound/stream.ts';
import { toGenerateContentChunks } from '../../../electron/gateway/protocols/gemini/inbound/response.ts';
import type { ChatResult } from '../../../electron/gateway/protocols/neutral/chat.ts';

const words = (text: string) => text.match(/\S+\s*/g) ?? [];

test('Gemini chunks carry each candidate until its last piece, function calls whole, usage on the final chunk', () => {
  const result: ChatResult = {
    choices: [
      { text: 'one two three', toolCalls: [], finishReason: 'stop' },
      { text: '', toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":1}' }], finishReason: 'tool_calls' },
    ],
    usage: { inputTokens: 7, outputTokens: 9 },
  };
  const chunks = toGenerateContentChunks(result, { model: 'm', responseId: 'r' }, words);
  assert.equal(chunks.length, 3);
  assert.deepEqual(
    chunks.map((chunk) => chunk.candidates.map((candidate) => candidate.index)),
    [[0, 1], [0], [0]],
  );
  assert.deepEqual(chunks[0]!.candidates[1], {
    content: { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'f', args: { a: 1 } } }] },
    finishReason: 'STOP',
    index: 1,
  });
  assert.equal(chunks.map((chunk) => (chunk.candidates[0]!.content.parts[0] as { text: string }).text).join(''), 'one two three');
  assert.equal(chunks[2]!.candidates[0]!.finishReason, 'STOP');
  assert.equal(chunks[1]!.candidates[0]!.finishReason, undefined);
  assert.deepEqual(chunks[2]!.usageMetadata, { promptTokenCount: 7, candidatesTokenCount: 9, totalTokenCount: 16 });
  assert.ok(chunks.slice(0, 2).every((chunk) => chunk.usageMetadata === undefined));
});

test('Anthropic events: a text block then a tool_use block, each with its deltas, one ping, stop reason at the end', () => {
  const message = toAnthropicMessage(
    {
      choices: [
        { text: 'Let me check.', toolCalls: [{ id: 'call_9', name: 'lookup', arguments: '{"q":"x y"}' }], finishReason: 'tool_calls' },
      ],
      usage: { inputTokens: 5, outputTokens: 8 },
    },
    'claude',
    'msg_1',
  );
  const events = anthropicStreamEvents(message, words);
  assert.deepEqual(
    events.map((event) => event.name),
    [
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ],
  );
  const toolStart = events[7]!.data as any;
  assert.deepEqual(toolStart.content_block, { type: 'tool_use', id: 'toolu_9', name: 'lookup', input: {} });
  const json = events
    .filter((event) => (event.data as any).delta?.type === 'input_json_delta')
    .map((event) => (event.data as any).delta.partial_json)
    .join('');
  assert.deepEqual(JSON.parse(json), { q: 'x y' });
  assert.deepEqual((events.at(-2)!.data as any).delta, { stop_reason: 'tool_use', stop_sequence: null });
});

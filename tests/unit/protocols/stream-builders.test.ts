// Unit tests of the stream builders fed with deltas: Gemini chunks for several candidates and tool calls, Anthropic events for text plus tool_use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anthropicStreamEvents } from '../../../electron/gateway/protocols/anthropic/inbound/stream.ts';
import { toGenerateContentChunks } from '../../../electron/gateway/protocols/gemini/inbound/response.ts';
import type { ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';

/** The deltas as a stream, and the stream builder's output as a list. */
async function* streamOf(deltas: ChatDelta[]): AsyncGenerator<ChatDelta> {
  yield* deltas;
}
async function listOf<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

test('Gemini chunks carry each candidate until its last piece, function calls whole, usage on the final chunk', async () => {
  // Candidate 0 answers 'one two three' word by word; candidate 1 calls f({"a":1}) between its first two words.
  const deltas: ChatDelta[] = [
    { type: 'text', choice: 0, text: 'one ' },
    { type: 'tool_call', choice: 1, call: 0, id: 'call_1', name: 'f' },
    { type: 'tool_arguments', choice: 1, call: 0, fragment: '{"a":1}' },
    { type: 'finish', choice: 1, reason: 'tool_calls' },
    { type: 'text', choice: 0, text: 'two ' },
    { type: 'text', choice: 0, text: 'three' },
    { type: 'finish', choice: 0, reason: 'stop' },
    { type: 'usage', inputTokens: 7, outputTokens: 9 },
  ];
  const chunks = await listOf(toGenerateContentChunks(streamOf(deltas), { model: 'm', responseId: 'r' }));
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

test('Anthropic events: a text block then a tool_use block, each with its deltas, one ping, stop reason at the end', async () => {
  // 'Let me check.' word by word, then lookup({"q":"x y"}) in two fragments.
  const deltas: ChatDelta[] = [
    { type: 'text', choice: 0, text: 'Let ' },
    { type: 'text', choice: 0, text: 'me ' },
    { type: 'text', choice: 0, text: 'check.' },
    { type: 'tool_call', choice: 0, call: 0, id: 'call_9', name: 'lookup' },
    { type: 'tool_arguments', choice: 0, call: 0, fragment: '{"q":"x ' },
    { type: 'tool_arguments', choice: 0, call: 0, fragment: 'y"}' },
    { type: 'finish', choice: 0, reason: 'tool_calls' },
    { type: 'usage', inputTokens: 5, outputTokens: 8 },
  ];
  const events = await listOf(anthropicStreamEvents(streamOf(deltas), { id: 'msg_1', model: 'claude', inputTokens: 5 }));
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

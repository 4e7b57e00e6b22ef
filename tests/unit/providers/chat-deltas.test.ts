// Unit tests of the neutral chat stream: the simulator's deltas fold back into the very answer they spell, and a streamed answer is the whole answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest, ChatResult } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { collectChat } from '../../../electron/gateway/protocols/neutral/deltas.ts';
import { joinChatResults, joinChatStreams } from '../../../electron/gateway/protocols/neutral/join.ts';
import { resultDeltas, SimulatedChat } from '../../../electron/gateway/providers/simulate/chat.ts';
import { simulateChat } from '../../../electron/gateway/providers/simulate/text/engine.ts';
import type { CallContext } from '../../../electron/gateway/providers/types.ts';

async function* streamOf<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

const CALL = { headers: {}, signal: new AbortController().signal } as unknown as CallContext;

test('collectChat(resultDeltas(result)) is the result: text, empty text, stop sequences, several choices with tool calls', async () => {
  const results: ChatResult[] = [
    { choices: [{ text: 'Hello, world! How are you?', toolCalls: [], finishReason: 'stop' }], usage: { inputTokens: 9, outputTokens: 8 } },
    { choices: [{ text: '', toolCalls: [], finishReason: 'length' }], usage: { inputTokens: 3, outputTokens: 0 } },
    {
      choices: [
        { text: 'one two', toolCalls: [], finishReason: 'stop_sequence', stopSequence: 'three' },
        {
          text: '',
          toolCalls: [
            { id: 'call_1', name: 'lookup', arguments: '{"q":"a b c","n":3}' },
            { id: 'call_2', name: 'other', arguments: '{}' },
          ],
          finishReason: 'tool_calls',
        },
      ],
      usage: { inputTokens: 20, outputTokens: 17 },
    },
  ];
  for (const result of results) assert.deepEqual(await collectChat(streamOf(resultDeltas(result))), result);
});

test("the engine's answers round-trip through their deltas, and the provider's stream spells what complete() answers", async () => {
  const requests: ChatRequest[] = [
    { model: 'sim-chat', turns: [{ role: 'user', text: 'Explain database indexes briefly.' }], n: 2 },
    {
      model: 'sim-chat',
      turns: [{ role: 'user', text: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      toolChoice: 'required',
    },
    { model: 'sim-echo', turns: [{ role: 'user', text: 'a b c d e' }], maxTokens: 2 },
  ];
  const chat = new SimulatedChat();
  for (const request of requests) {
    const result = simulateChat(request);
    assert.deepEqual(await collectChat(streamOf(resultDeltas(result))), result);
    const stream = await chat.stream(request, CALL);
    assert.equal(stream.inputTokens, result.usage.inputTokens);
    assert.deepEqual(await collectChat(stream), await chat.complete(request));
  }
});

test('joined streams fold into the joined results: choices renumbered in order, usage summed once at the end', async () => {
  const first: ChatResult = { choices: [{ text: 'a b', toolCalls: [], finishReason: 'stop' }], usage: { inputTokens: 2, outputTokens: 2 } };
  const second: ChatResult = {
    choices: [
      { text: 'c', toolCalls: [], finishReason: 'stop' },
      { text: 'd e f', toolCalls: [], finishReason: 'length' },
    ],
    usage: { inputTokens: 3, outputTokens: 4 },
  };
  const joined = joinChatStreams(
    [first, second].map((result) => ({
      inputTokens: result.usage.inputTokens,
      [Symbol.asyncIterator]: () => streamOf(resultDeltas(result)),
      atHand: () => resultDeltas(result),
    })),
    [1, 2],
  );
  assert.equal(joined.inputTokens, 5);
  const deltas = [];
  for await (const delta of joined) deltas.push(delta);
  assert.deepEqual(
    deltas.filter((delta) => delta.type === 'usage'),
    [{ type: 'usage', inputTokens: 5, outputTokens: 6 }],
  );
  assert.deepEqual(await collectChat(streamOf(deltas)), joinChatResults([first, second]));
  // Streams all at hand join at hand too, to the same deltas; one that is not leaves the join async only.
  assert.deepEqual([...joined.atHand!()], deltas);
  const async = joinChatStreams([joined, { [Symbol.asyncIterator]: () => streamOf(resultDeltas(first)) }], [3, 1]);
  assert.equal(async.atHand, undefined);
});

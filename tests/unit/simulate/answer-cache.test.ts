// Unit tests of the simulated chat provider's kept answers: the engine's answer for every field of the request, copies callers cannot spoil, streams cut once and shared, the bound on entries and on request size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCache, ANSWER_CACHE_ENTRIES, MAX_CACHED_REQUEST_CHARS } from '../../../electron/gateway/providers/simulate/answer-cache.ts';
import { SimulatedChat } from '../../../electron/gateway/providers/simulate/chat.ts';
import { simulateChat } from '../../../electron/gateway/providers/simulate/text/engine.ts';
import type { ChatRequest, ChatResult } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { collectChat, foldChat, type ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'sim-chat',
  turns: [{ role: 'user', text }],
  ...extra,
});

test('a request asked again gets the engine answer for all its fields, never one kept for a request that differs in one', async () => {
  const chat = new SimulatedChat();
  const variants: ChatRequest[] = [
    ask('Say something short.'),
    ask('Say something short.', { maxTokens: 3 }),
    ask('Say something short.', { stop: ['e'] }),
    ask('Say something short.', { n: 2 }),
    ask('Say something short.', { seed: 7 }),
    ask('Say something short.', { model: 'sim-echo' }),
    ask('Say something short.', { system: 'Be brief.' }),
  ];
  for (let round = 0; round < 2; round++) {
    for (const request of variants) assert.deepEqual(await chat.complete(request), simulateChat(request), JSON.stringify(request));
  }
});

test('each answer handed out is a copy: a caller that changes it does not change the next answer', async () => {
  const chat = new SimulatedChat();
  const request = ask('What is the weather?', {
    tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    toolChoice: 'required',
  });
  const expected = simulateChat(request);
  for (let round = 0; round < 3; round++) {
    const answer = await chat.complete(request);
    assert.deepEqual(answer, expected);
    answer.choices[0]!.text = 'changed';
    answer.choices[0]!.toolCalls[0]!.arguments = '{}';
    answer.choices.push({ text: 'more', toolCalls: [], finishReason: 'stop' });
    answer.usage.outputTokens = 0;
  }
});

test(`at most ${ANSWER_CACHE_ENTRIES} answers are kept (the oldest goes first), and none for a request past ${MAX_CACHED_REQUEST_CHARS} characters`, () => {
  const cache = new AnswerCache();
  const made: string[] = [];
  const make = (request: ChatRequest): ChatResult => {
    made.push(request.turns[0]!.text);
    return simulateChat(request);
  };
  for (let index = 0; index <= ANSWER_CACHE_ENTRIES; index++) cache.answer(ask(`question ${index}`), make);
  assert.equal(made.length, ANSWER_CACHE_ENTRIES + 1);
  cache.answer(ask(`question ${ANSWER_CACHE_ENTRIES}`), make);
  cache.answer(ask('question 1'), make);
  assert.equal(made.length, ANSWER_CACHE_ENTRIES + 1, 'the newest answers were kept');
  cache.answer(ask('question 0'), make);
  assert.equal(made.length, ANSWER_CACHE_ENTRIES + 2, 'the oldest was dropped');
  const long = ask('word '.repeat(MAX_CACHED_REQUEST_CHARS / 5 + 1));
  cache.answer(long, make);
  cache.answer(long, make);
  assert.equal(made.length, ANSWER_CACHE_ENTRIES + 4, 'a long request is answered afresh each time');
  const image: ChatRequest = {
    model: 'sim-chat',
    turns: [{ role: 'user', text: 'look', parts: [{ type: 'image', mediaType: 'image/png', data: 'A'.repeat(MAX_CACHED_REQUEST_CHARS) }] }],
  };
  cache.answer(image, make);
  cache.answer(image, make);
  assert.equal(made.length, ANSWER_CACHE_ENTRIES + 6, 'so is a request with a large image');
});

test('the streams of a kept answer, cut once and shared, each spell the engine answer (text, several choices, tool calls)', async () => {
  const chat = new SimulatedChat();
  const call = { headers: {}, signal: new AbortController().signal } as unknown as Parameters<SimulatedChat['stream']>[1];
  const requests = [
    ask('Tell me a story about a lighthouse.', { n: 2 }),
    ask('What is the weather?', {
      tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: 'required',
    }),
  ];
  for (const request of requests) {
    const expected = simulateChat(request);
    for (let round = 0; round < 3; round++) {
      const stream = await chat.stream(request, call);
      assert.deepEqual(await collectChat(stream), expected, `${JSON.stringify(request)}, stream ${round}`);
      assert.deepEqual(collectAtHand(stream.atHand!()), expected, `${JSON.stringify(request)}, stream at hand ${round}`);
    }
  }
});

/** The answer the deltas of a stream at hand spell. */
function collectAtHand(deltas: Iterable<unknown>): ChatResult {
  return foldChat([...deltas] as ChatDelta[]);
}

// Unit tests of the stream builders fed with deltas: Gemini chunks for several candidates and tool calls, Anthropic events for text plus tool_use, and every protocol's events at hand the same as streamed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anthropicStreamEvents, anthropicStreamEventsAtHand } from '../../../electron/gateway/protocols/anthropic/inbound/stream.ts';
import { Hold } from '../../../electron/gateway/protocols/at-hand.ts';
import { toGenerateContentChunks, toGenerateContentChunksAtHand } from '../../../electron/gateway/protocols/gemini/inbound/response.ts';
import type { ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';
import { dataFrame, EventRun, sseFrame, type SseEvent } from '../../../electron/gateway/protocols/named-event.ts';
import { openaiChatCodec } from '../../../electron/gateway/protocols/openai/inbound/chat-codec.ts';
import { openaiCompletionsCodec } from '../../../electron/gateway/protocols/openai/inbound/completions-codec.ts';
import { responsesCodec } from '../../../electron/gateway/protocols/responses/inbound/codec.ts';

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

test('every client protocol gives the same events from deltas at hand as from the async stream, a Hold passed on where it stood', async () => {
  const deltas: ChatDelta[] = [
    { type: 'reasoning', choice: 0, part: 0, text: 'thinking' },
    { type: 'text', choice: 0, text: 'Hello "quoted"\n' },
    { type: 'text', choice: 0, text: ' wörld \u2028 ✓' },
    { type: 'tool_call', choice: 0, call: 0, id: 'call_1', name: 'f' },
    { type: 'tool_arguments', choice: 0, call: 0, fragment: '{"a":' },
    { type: 'tool_arguments', choice: 0, call: 0, fragment: '1}' },
    { type: 'finish', choice: 0, reason: 'tool_calls' },
    { type: 'text', choice: 1, text: 'other' },
    { type: 'finish', choice: 1, reason: 'stop' },
    { type: 'usage', inputTokens: 7, outputTokens: 9 },
  ];
  const hold = new Hold(Promise.resolve());
  const atHand = [...deltas.slice(0, -1), hold, deltas.at(-1)!];
  const chatMeta = { id: 'chatcmpl-1', created: 1, model: 'm' };
  let ids = 0;
  const responsesMeta = () => ({ id: 'resp_1', createdAt: 1, newId: (prefix: string) => `${prefix}_${ids++}` });
  const responsesCall = responsesCodec.parse({ model: 'm', input: 'hi' });
  const cases: [string, () => AsyncIterable<unknown>, () => Iterable<unknown>][] = [];
  for (const includeUsage of [false, true]) {
    const call = openaiChatCodec.parse({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      ...(includeUsage && { stream_options: { include_usage: true } }),
    });
    cases.push([
      `OpenAI chat, include_usage ${includeUsage}`,
      () => openaiChatCodec.stream(streamOf(deltas), call, chatMeta),
      () => openaiChatCodec.streamAtHand(atHand, call, chatMeta),
    ]);
  }
  const anthropicMeta = { id: 'msg_1', model: 'm', inputTokens: 7 };
  cases.push([
    'Anthropic',
    () => anthropicStreamEvents(streamOf(deltas), anthropicMeta),
    () => anthropicStreamEventsAtHand(atHand, anthropicMeta),
  ]);
  const geminiMeta = { model: 'm', responseId: 'r' };
  cases.push([
    'Gemini',
    () => toGenerateContentChunks(streamOf(deltas), geminiMeta),
    () => toGenerateContentChunksAtHand(atHand, geminiMeta),
  ]);
  cases.push([
    'Responses',
    () => responsesCodec.stream(streamOf(deltas), responsesCall, responsesMeta()),
    () => responsesCodec.streamAtHand(atHand, responsesCall, ((ids = 0), responsesMeta())),
  ]);
  for (const [name, stream, streamAtHand] of cases) {
    ids = 0;
    const expected = await listOf(stream());
    const got = [...streamAtHand()];
    assert.equal(got.filter((item) => item === hold).length, 1, `${name}: the Hold passed on once`);
    // A run of events (text pieces written together) stands for its events, one by one.
    const events = got.filter((item) => item !== hold).flatMap((item) => (item instanceof EventRun ? item.events() : [item]));
    // An SSE event is its name and data (and, for some, its own frame, checked below); how it holds them is its own.
    const shown = (item: unknown) =>
      typeof item === 'object' && item !== null && 'data' in item ? { name: (item as { name?: string }).name, data: item.data } : item;
    assert.deepEqual(events.map(shown), expected.map(shown), name);
    // The frames the writer makes: an event's own frame, when it brings one, is the frame of its name and data.
    for (const event of events as { name?: string; data?: unknown; frame?: string }[])
      if (event.frame !== undefined)
        assert.equal(event.frame, sseFrame({ ...(event.name && { name: event.name }), data: event.data }), name);
    assert.ok(
      events.slice(0, got.indexOf(hold)).every((event) => !JSON.stringify(event ?? null).includes('"output_tokens":9')),
      `${name}: no usage before the Hold`,
    );
    if (name.startsWith('OpenAI')) {
      const framesOf = (items: unknown[]) => items.map((item) => (item === hold ? '' : sseFrame(item as SseEvent))).join('');
      assert.equal(framesOf(got), framesOf(expected), `${name}: the same frames written`);
    }
  }
});

test('OpenAI chat at hand: the text pieces of an opened choice leave as one run, the same frames event by event, each time a kept answer is streamed', async () => {
  const text = (choice: number, pieces: string[]): ChatDelta[] => pieces.map((piece) => ({ type: 'text', choice, text: piece }));
  const words = ['In', ' practice', ',', ' "say"', ' wörld', ' \u2028', ' \\', ' ✓', '.'];
  const answer: ChatDelta[] = [
    ...text(0, words),
    { type: 'finish', choice: 0, reason: 'stop' },
    ...text(1, words.slice(2)),
    { type: 'finish', choice: 1, reason: 'length' },
    { type: 'tool_call', choice: 2, call: 0, id: 'call_1', name: 'f' },
    { type: 'tool_arguments', choice: 2, call: 0, fragment: '{}' },
    { type: 'finish', choice: 2, reason: 'tool_calls' },
    { type: 'usage', inputTokens: 7, outputTokens: 9 },
  ];
  // A kept answer's deltas are frozen and shared by its streams (their quoted texts then kept too).
  const kept = Object.freeze(answer.map((delta) => Object.freeze({ ...delta })));
  const meta = { id: 'chatcmpl-1', created: 1, model: 'm' };
  for (const includeUsage of [false, true])
    for (const legacy of [false, true]) {
      const call = openaiChatCodec.parse({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        n: 3,
        ...(includeUsage && { stream_options: { include_usage: true } }),
        ...(legacy && { functions: [{ name: 'f', parameters: {} }] }),
      });
      const name = `include_usage ${includeUsage}, legacy functions ${legacy}`;
      const events = await listOf(openaiChatCodec.stream(streamOf(answer), call, meta));
      // A frame written up front (an opening, a piece, a finish) is the frame of the event's data.
      for (const event of events)
        if (typeof event === 'object' && 'frame' in event && event.frame !== undefined)
          assert.equal(event.frame, sseFrame({ data: event.data }), `${name}: a written frame`);
      const staged = events.map(sseFrame).join('');
      for (const deltas of [answer, kept, kept]) {
        const items = [...openaiChatCodec.streamAtHand(deltas, call, meta)];
        const runs = items.filter((item) => item instanceof EventRun);
        assert.deepEqual(
          runs.map((run) => run.events().length),
          [words.length - 1, words.length - 3],
          `${name}: one run per choice, every piece but the first`,
        );
        assert.equal(items.map((item) => sseFrame(item as SseEvent)).join(''), staged, `${name}: the same frames`);
      }
    }
});

test('Anthropic, Gemini, Responses and legacy completions at hand: text pieces leave as runs, written as the same frames as event by event, each time a kept answer is streamed', async () => {
  const text = (choice: number, pieces: string[]): ChatDelta[] => pieces.map((piece) => ({ type: 'text', choice, text: piece }));
  const words = ['In', ' practice', ',', ' "say"', ' wörld', ' \u2028', ' \\', ' ✓', '.'];
  const answer: ChatDelta[] = [
    ...text(0, words),
    { type: 'tool_call', choice: 0, call: 0, id: 'call_1', name: 'f' },
    { type: 'tool_arguments', choice: 0, call: 0, fragment: '{}' },
    // Text after a call (a new block, a new message item), an empty piece amid it.
    ...text(0, [...words.slice(3, 6), '', ...words.slice(6)]),
    { type: 'finish', choice: 0, reason: 'stop' },
    ...text(1, words.slice(1)),
    { type: 'finish', choice: 1, reason: 'length' },
    { type: 'usage', inputTokens: 7, outputTokens: 9 },
  ];
  // A kept answer's deltas are frozen and shared by its streams (their quoted texts then kept too).
  const kept = Object.freeze(answer.map((delta) => Object.freeze({ ...delta })));
  const responsesCall = responsesCodec.parse({ model: 'm', input: 'hi' });
  const responsesMeta = () => {
    let ids = 0;
    return { id: 'resp_1', createdAt: 1, newId: (prefix: string) => `${prefix}_${ids++}` };
  };
  const dataFramed = (item: unknown) => (item instanceof EventRun ? item.frames : dataFrame(JSON.stringify(item)));
  const cases: [string, () => AsyncIterable<unknown>, (deltas: readonly ChatDelta[]) => Iterable<unknown>, (item: unknown) => string][] = [
    [
      'Anthropic',
      () => anthropicStreamEvents(streamOf(answer), { id: 'msg_1', model: 'm', inputTokens: 7 }),
      (deltas) => anthropicStreamEventsAtHand(deltas, { id: 'msg_1', model: 'm', inputTokens: 7 }),
      (item) => sseFrame(item as SseEvent),
    ],
    [
      'Gemini (alt=sse)',
      () => toGenerateContentChunks(streamOf(answer), { model: 'm', responseId: 'r' }),
      (deltas) => toGenerateContentChunksAtHand(deltas, { model: 'm', responseId: 'r' }),
      dataFramed,
    ],
    [
      'Responses',
      () => responsesCodec.stream(streamOf(answer), responsesCall, responsesMeta()),
      (deltas) => responsesCodec.streamAtHand(deltas, responsesCall, responsesMeta()),
      (item) => sseFrame(item as SseEvent),
    ],
  ];
  for (const echo of [false, true]) {
    const call = openaiCompletionsCodec.parse({
      model: 'm',
      prompt: 'Say "hi"',
      n: 2,
      echo,
      stream: true,
      stream_options: { include_usage: true },
    });
    const meta = { id: 'cmpl-1', created: 1, model: 'm' };
    cases.push([
      `legacy completions, echo ${echo}`,
      () => openaiCompletionsCodec.stream(streamOf(answer), call, meta),
      (deltas) => openaiCompletionsCodec.streamAtHand!(deltas, call, meta),
      (item) => sseFrame(item as SseEvent),
    ]);
  }
  for (const [name, stream, streamAtHand, framed] of cases) {
    const events = await listOf(stream());
    const staged = events.map(framed).join('');
    for (const deltas of [answer, kept, kept]) {
      const items = [...streamAtHand(deltas)];
      const runs = items.filter((item) => item instanceof EventRun);
      assert.ok(runs.length >= 2, `${name}: the pieces of each text leave as a run`);
      // A run stands for as many events as it is framed as, each made on demand the same as event by event.
      assert.equal(
        items.reduce<number>((sum, item) => sum + (item instanceof EventRun ? item.size : 1), 0),
        events.length,
        name,
      );
      assert.deepEqual(
        runs.flatMap((run) => run.events().map(framed)).join(''),
        runs.map((run) => framed(run)).join(''),
        `${name}: a run's events, one by one, are its frames`,
      );
      assert.equal(items.map(framed).join(''), staged, `${name}: the same frames`);
    }
  }
});

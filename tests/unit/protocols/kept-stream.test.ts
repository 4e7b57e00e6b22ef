// Unit tests of a kept simulated answer's stream written as the bytes rendered once: the same bytes, charges and first-output notes as the stages write, for every variant, and when the charge fails.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SimulatedChat } from '../../../electron/gateway/providers/simulate/chat.ts';
import { ChatMetering } from '../../../electron/gateway/services/chat-metering.ts';
import type { BillingService, Usage } from '../../../electron/gateway/services/billing.ts';
import type { Principal } from '../../../electron/gateway/principal.ts';
import { openaiChatCodec } from '../../../electron/gateway/protocols/openai/inbound/chat-codec.ts';
import { anthropicCodec } from '../../../electron/gateway/protocols/anthropic/inbound/codec.ts';
import type { CompletionMeta } from '../../../electron/gateway/protocols/openai/inbound/chat-response.ts';
import { streamEvents } from '../../../electron/gateway/protocols/neutral/codec.ts';
import {
  keptFrames,
  KeptSpan,
  KeptStream,
  MAX_KEPT_STREAM_BYTES,
  type KeptStreamCodec,
} from '../../../electron/gateway/protocols/neutral/kept-stream.ts';
import { Hold } from '../../../electron/gateway/protocols/at-hand.ts';
import type { WrittenBytes } from '../../../electron/gateway/protocols/named-event.ts';
import { AT_HAND_WRITE_CHARS, writeSse, writeSseData } from '../../../electron/gateway/server/sse.ts';
import { geminiCodec } from '../../../electron/gateway/protocols/gemini/inbound/codec.ts';
import { openaiCompletionsCodec } from '../../../electron/gateway/protocols/openai/inbound/completions-codec.ts';
import { choicesPerPrompt } from '../../../electron/gateway/protocols/openai/inbound/completions.ts';
import { joinChatStreams } from '../../../electron/gateway/protocols/neutral/join.ts';
import type { ChatStream } from '../../../electron/gateway/protocols/neutral/deltas.ts';
import { streamFailure } from '../../../electron/gateway/server/stream-failure.ts';
import { LEGACY_FUNCTIONS_BODY, TOOL_CALLS_BODY, user, WEATHER } from '../../helpers/chat-variants.ts';

/** A response that keeps each write as it was given (a string or bytes); `leaving`: its client leaves once the first write is made (the socket closes instead of draining). */
class CapturedResponse extends EventEmitter {
  readonly writes: (string | Buffer)[] = [];
  private readonly leaving: boolean;
  constructor(leaving = false) {
    super();
    this.leaving = leaving;
  }
  writeHead() {}
  flushHeaders() {}
  write(chunk: string | Buffer) {
    if (chunk.length > 0) this.writes.push(chunk);
    if (!this.leaving) return true;
    setImmediate(() => this.emit('close'));
    return false;
  }
  end(chunk?: string | Buffer) {
    if (chunk !== undefined && chunk.length > 0) this.writes.push(chunk);
  }
  destroy() {}
  /** What reached the client, as bytes. */
  bytes(): Buffer {
    return Buffer.concat(this.writes.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  }
}

/** Bodies whose streams differ in every way the bytes can: usage chunk, tool calls, legacy functions, several choices, text beyond ASCII. */
const VARIANTS: Record<string, Record<string, unknown>> = {
  plain: { model: 'gpt-4o-mini', messages: user('Tell me about lighthouses on rocky coasts.') },
  include_usage: {
    model: 'gpt-4o-mini',
    messages: user('Tell me about lighthouses on rocky coasts.'),
    stream_options: { include_usage: true },
  },
  'tool calls': { ...TOOL_CALLS_BODY },
  'legacy functions': { ...LEGACY_FUNCTIONS_BODY },
  'n=3': { model: 'gpt-4o-mini', messages: user('Name a colour.'), n: 3, max_tokens: 20, stream_options: { include_usage: true } },
  'non-ASCII text and model': { model: 'sim-echo', messages: user('Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu.') },
};

/** A client protocol's codec as the harness drives it; `joined`: the stream as its route passes it on (the legacy completions' join). */
type Codec<Meta> = {
  parse(body: unknown): { chat: Parameters<SimulatedChat['stream']>[0] };
  joined?: (stream: ChatStream, call: never) => ChatStream;
} & Parameters<typeof streamEvents<never, Meta, never>>[0];

/** How the client of a call leaves before the end: once the first write is made, or while the charge is committed. */
type Leaving = 'after first write' | 'at the commit';

/**
 * A call of `body` through the simulator, the metering and `codec` (OpenAI's unless told), written by the SSE writer:
 * `whole` lets a kept answer go as its rendered bytes. `offered`: the stream offered its kept spans (the answer is kept).
 */
/** Every chunk of an OpenAI stream's `bytes` carries the call's own identity: `meta`'s id, time and model. */
function chunksCarry(bytes: Buffer, meta: CompletionMeta, name = JSON.stringify(meta)) {
  const chunks = bytes
    .toString()
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'));
  for (const chunk of chunks) {
    const parsed = JSON.parse(chunk.slice('data: '.length)) as CompletionMeta;
    assert.deepEqual({ id: parsed.id, created: parsed.created, model: parsed.model }, meta, name);
  }
}

function harness<Meta = CompletionMeta>(
  failCommit = false,
  codec: Codec<Meta> = openaiChatCodec as unknown as Codec<Meta>,
  write: typeof writeSse = writeSse,
) {
  const chat = new SimulatedChat();
  return async (body: Record<string, unknown>, whole: boolean, meta: Meta, leaving?: Leaving) => {
    const raw = new CapturedResponse(leaving === 'after first write');
    const charges: { usage: Usage; way: string }[] = [];
    let firstOutputs = 0;
    const billing = {
      chargeCommitted: (_principal: Principal, usage: Usage) => {
        charges.push({ usage, way: 'committed' });
        if (leaving === 'at the commit') raw.emit('close');
        return failCommit ? Promise.reject(new Error('the disk is gone')) : Promise.resolve();
      },
      chargeAnswered: (_principal: Principal, usage: Usage) => void charges.push({ usage, way: 'answered' }),
    } as unknown as BillingService;
    const principal = { notes: { firstOutput: () => firstOutputs++, note() {} } } as unknown as Principal;
    const parsed = codec.parse({ ...body, stream: true });
    const call = { headers: {}, signal: new AbortController().signal } as unknown as Parameters<SimulatedChat['stream']>[1];
    const asked = await chat.stream(parsed.chat, call);
    const stream = codec.joined ? codec.joined(asked, parsed as never) : asked;
    const metered = new ChatMetering(billing).meter(
      stream,
      { principal, endpoint: '/v1/chat/completions', model: parsed.chat.model },
      () => 1,
    );
    const reply = { hijack() {}, getHeaders: () => ({}), raw } as unknown as FastifyReply;
    const reported: unknown[] = [];
    const events = streamEvents(codec, metered, parsed as never, meta, whole);
    await write(
      {} as FastifyRequest,
      reply,
      events,
      streamFailure('openai', (error) => reported.push(error)),
    );
    return { raw, charges, firstOutputs, reported, offered: stream.keptAtHand !== undefined, kept: stream.keptAtHand?.kept };
  };
}

const META: CompletionMeta = { id: 'chatcmpl-0123456789abcdefghijklmn', created: 1_764_230_000, model: 'gpt-4o-mini' };

test('a kept answer streams as one write of the bytes rendered once: byte for byte what the stages write, for every variant', async () => {
  const call = harness();
  for (const [name, body] of Object.entries(VARIANTS)) {
    const meta = { ...META, model: body['model'] === 'sim-echo' ? 'sïm-échø 模型' : META.model };
    // The first stream keeps the answer; then the kept stream, twice (its render made, then read), beside the stages.
    const staged = await call(body, false, meta);
    for (let round = 0; round < 2; round++) {
      const kept = await call(body, true, meta);
      assert.equal(kept.raw.writes.length, 1, `${name}: one write`);
      assert.ok(Buffer.isBuffer(kept.raw.writes[0]), `${name}: written as bytes, with nothing to encode`);
      assert.equal(kept.raw.bytes().toString(), staged.raw.bytes().toString(), `${name}: the same text`);
      assert.deepEqual(kept.raw.bytes(), staged.raw.bytes(), `${name}: the same bytes`);
      assert.deepEqual(kept.charges, staged.charges, `${name}: the same charge, committed before the answer`);
      assert.equal(kept.firstOutputs, 1, `${name}: the first output told once`);
      assert.equal(staged.firstOutputs, 1);
    }
    assert.equal(typeof staged.raw.writes[0], 'string', `${name}: the stages write text`);
  }
  const text = (await call(VARIANTS['non-ASCII text and model']!, true, META)).raw.bytes().toString();
  const chunks = text.split('\n\n').filter(Boolean);
  assert.equal(chunks.at(-1), 'data: [DONE]');
  const parsed = chunks
    .slice(0, -1)
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as { id: string; choices: { delta: { content?: string } }[] });
  for (const chunk of parsed) assert.equal(chunk.id, META.id, 'every chunk has the call id');
  const content = parsed.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
  assert.equal(content, 'Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu.', 'the echo carries the text beyond ASCII');
});

test("each call's identity is its own: another id, time and model (of another length) in every chunk of the kept stream", async () => {
  const call = harness();
  const body = VARIANTS['include_usage']!;
  const metas: CompletionMeta[] = [
    META,
    { id: 'chatcmpl-x', created: 7, model: 'a-much-longer-model-name' },
    { id: 'chatcmpl-"quoted"\\', created: 1_764_230_001, model: 'ünïcødé' },
    META,
  ];
  for (const meta of metas) {
    const [staged, kept] = [await call(body, false, meta), await call(body, true, meta)];
    assert.ok(Buffer.isBuffer(kept.raw.writes[0]));
    assert.deepEqual(kept.raw.bytes(), staged.raw.bytes(), JSON.stringify(meta));
    chunksCarry(kept.raw.bytes(), meta);
  }
});

test('a kept stream whose charge fails writes what the stages write (the answer, then the error frame) and is charged for what it delivered', async () => {
  const call = harness(true);
  for (const name of ['plain', 'include_usage', 'tool calls']) {
    const body = VARIANTS[name]!;
    const staged = await call(body, false, META);
    const kept = await call(body, true, META);
    assert.ok(Buffer.isBuffer(kept.raw.writes[0]), `${name}: written as bytes`);
    assert.deepEqual(kept.raw.bytes(), staged.raw.bytes(), `${name}: the same bytes`);
    assert.match(kept.raw.bytes().toString(), /"error":/, `${name}: ends with the error frame`);
    assert.doesNotMatch(kept.raw.bytes().toString(), /\[DONE\]/);
    assert.deepEqual(kept.charges, staged.charges, `${name}: the same charges`);
    assert.deepEqual(
      kept.charges.map((charge) => charge.way),
      ['committed', 'answered'],
      `${name}: the failed commit, then the charge for what was delivered`,
    );
  }
});

/** A kept answer (its request is 3.3 KiB of JSON, under the answer cache's 4 KiB) whose stream is ~600 KB: four echoes of its prompt. */
const LONG_ANSWER = {
  model: 'sim-echo',
  n: 4,
  max_tokens: 4000,
  messages: user('lorem ipsum dolor sit amet '.repeat(120)),
  stream_options: { include_usage: true },
};

/** A kept answer of a short stream whose model name (3.9 K characters) is written in each of its ~190 chunks: ~780 KB with it, ~12 KB without. */
const LONG_MODEL = { model: `sim-echo${'m'.repeat(3936)}`, n: 4, messages: user('a '.repeat(20)) };

test(`a kept answer whose stream is over ${MAX_KEPT_STREAM_BYTES} bytes is not kept rendered: it goes through the stages, the same bytes`, async () => {
  const call = harness();
  const staged = await call(LONG_ANSWER, false, META);
  const kept = await call(LONG_ANSWER, true, META);
  assert.ok(kept.offered, 'the answer is kept (a short request), so the render was tried');
  assert.ok(staged.raw.bytes().length > MAX_KEPT_STREAM_BYTES, `the stream is long: ${staged.raw.bytes().length} bytes`);
  assert.ok(
    kept.raw.writes.every((chunk) => typeof chunk === 'string'),
    'written through the stages',
  );
  assert.deepEqual(kept.raw.bytes(), staged.raw.bytes());
  assert.deepEqual(kept.charges, staged.charges);
});

test('a client that leaves mid-stream is charged as on the staged path (for what it was written), not for the whole kept answer', async () => {
  assert.ok(MAX_KEPT_STREAM_BYTES <= AT_HAND_WRITE_CHARS, 'a kept stream rendered leaves in one write, after all it metered');
  const call = harness();
  for (const [name, body] of [
    ['a long answer', LONG_ANSWER],
    ['a long model name', LONG_MODEL],
  ] as const) {
    const meta = { ...META, model: body.model };
    const whole = await call(body, false, meta);
    const staged = await call(body, false, meta, 'after first write');
    const kept = await call(body, true, meta, 'after first write');
    assert.ok(kept.offered, `${name}: the answer is kept`);
    const sizes = (writes: (string | Buffer)[]) => writes.map((chunk) => chunk.length);
    assert.ok(staged.raw.writes.length < whole.raw.writes.length, `${name}: the client left before the end`);
    assert.ok(
      (staged.charges[0]?.usage.outputTokens ?? 0) < whole.charges[0]!.usage.outputTokens,
      `${name}: the staged path charges what was written`,
    );
    assert.deepEqual(kept.charges, staged.charges, `${name}: the same charge`);
    assert.deepEqual(sizes(kept.raw.writes), sizes(staged.raw.writes), `${name}: the same writes`);
  }
});

test(`a kept answer whose identities would take its stream over ${MAX_KEPT_STREAM_BYTES} bytes goes through the stages for that call, and no longer layout is kept`, async () => {
  const call = harness();
  const short = { ...LONG_MODEL, model: 'sim-echo' };
  const shortMeta = { ...META, model: short.model };
  const longMeta = { ...META, model: LONG_MODEL.model };
  await call(LONG_MODEL, false, longMeta);
  const staged = await call(LONG_MODEL, false, longMeta);
  const kept = await call(LONG_MODEL, true, longMeta);
  assert.ok(kept.offered, 'the answer is kept');
  assert.ok(staged.raw.bytes().length > 20 * MAX_KEPT_STREAM_BYTES, `the stream is long with its model: ${staged.raw.bytes().length}`);
  assert.ok(
    kept.raw.writes.every((chunk) => typeof chunk === 'string'),
    'written through the stages',
  );
  assert.deepEqual(kept.raw.bytes(), staged.raw.bytes());
  const renders = [...(kept.kept?.renders.values() ?? [])];
  assert.equal(renders.length, 1, 'the variant was rendered');
  assert.ok(renders[0] !== null && renders[0]!.keptBytes <= MAX_KEPT_STREAM_BYTES, `kept: ${renders[0]?.keptBytes} bytes`);
  // The same answer asked with a short model name (another kept answer: the model is part of the request) is kept rendered.
  await call(short, false, shortMeta);
  const keptShort = await call(short, true, shortMeta);
  assert.ok(Buffer.isBuffer(keptShort.raw.writes[0]), 'a short identity: written as the bytes rendered once');
  assert.deepEqual(keptShort.raw.bytes(), (await call(short, false, shortMeta)).raw.bytes());
});

test('a client that leaves while the charge of a kept stream is committed is charged as on the staged path, and sent nothing', async () => {
  const call = harness();
  const body = VARIANTS['include_usage']!;
  await call(body, false, META);
  const staged = await call(body, false, META, 'at the commit');
  const kept = await call(body, true, META, 'at the commit');
  assert.ok(kept.offered);
  assert.deepEqual(kept.charges, staged.charges);
  assert.deepEqual(
    kept.charges.map((charge) => charge.way),
    ['committed'],
  );
  assert.equal(kept.raw.writes.length, 0);
  assert.equal(staged.raw.writes.length, 0);
});

test('an Anthropic Messages stream of a kept answer is written the same way: the bytes of the stages, its id and model its own', async () => {
  const call = harness<{ id: string; model: string; inputTokens: number }>(false, anthropicCodec as never);
  const bodies = [
    { model: 'claude-sonnet-4-5', max_tokens: 200, messages: user('Tell me about lighthouses on rocky coasts.') },
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 200,
      messages: user('What is the weather in Paris?'),
      tools: [{ name: WEATHER.name, input_schema: WEATHER.parameters }],
      tool_choice: { type: 'any' },
    },
    { model: 'sim-echo', max_tokens: 200, messages: user('Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu.') },
  ];
  for (const body of bodies) {
    for (const meta of [
      { id: 'msg_0123456789abcdefghij', model: body.model, inputTokens: 14 },
      { id: 'msg_"x"', model: 'ünïcødé-model', inputTokens: 14 },
    ]) {
      const staged = await call(body, false, meta);
      const kept = await call(body, true, meta);
      assert.ok(Buffer.isBuffer(kept.raw.writes[0]), `${body.model}: written as bytes`);
      assert.equal(kept.raw.writes.length, 1);
      assert.deepEqual(kept.raw.bytes(), staged.raw.bytes(), `${body.model}: the same bytes`);
      assert.deepEqual(kept.charges, staged.charges);
      const [name, data] = kept.raw.bytes().toString().split('\n\n')[0]!.split('\n');
      assert.equal(name, 'event: message_start');
      const { message } = JSON.parse(data!.slice('data: '.length)) as { message: { id: string; model: string } };
      assert.deepEqual([message.id, message.model], [meta.id, meta.model], "the call's own id and model");
    }
  }
});

/** Gemini's codec as the harness drives it: the body's model is its path's. */
const GEMINI = { ...geminiCodec, parse: (body: { model: string }) => ({ chat: geminiCodec.parse({ body, model: body.model }) }) };

test("a Gemini stream (alt=sse) of a kept answer is written the same way: the bytes of the stages' data-only frames, its model and response id its own", async () => {
  for (const failCommit of [false, true]) {
    const call = harness<{ model: string; responseId: string }>(failCommit, GEMINI as never, writeSseData);
    const bodies = [
      { model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'Tell me about lighthouses on rocky coasts.' }] }] },
      {
        model: 'gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }],
        tools: [{ functionDeclarations: [{ name: WEATHER.name, parameters: WEATHER.parameters }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      },
      { model: 'gemini-2.5-flash', contents: [{ parts: [{ text: 'Name a colour.' }] }], generationConfig: { candidateCount: 3 } },
      { model: 'sim-echo', contents: [{ parts: [{ text: 'Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu.' }] }] },
    ];
    for (const body of bodies) {
      for (const meta of [
        { model: body.model, responseId: 'AbCdEfGhIjKlMnOpQrStUv' },
        { model: 'ünïcødé-"model"', responseId: 'x' },
      ]) {
        const staged = await call(body, false, meta);
        const kept = await call(body, true, meta);
        const name = `${JSON.stringify(body).slice(0, 120)} ${JSON.stringify(meta)}${failCommit ? ', the charge failing' : ''}`;
        assert.ok(kept.offered, `${name}: the answer is kept`);
        // A failed charge cuts the stream before its usage chunk: a tool call's only chunk is held until then (only the error frame).
        if (!failCommit || !body.tools) {
          assert.ok(Buffer.isBuffer(kept.raw.writes[0]), `${name}: written as bytes`);
          assert.equal(kept.raw.writes.length, 1, name);
        }
        assert.deepEqual(kept.raw.bytes(), staged.raw.bytes(), `${name}: the same bytes`);
        assert.deepEqual(kept.charges, staged.charges, `${name}: the same charges`);
        if (failCommit) continue;
        const chunks = kept.raw.bytes().toString().split('\n\n').filter(Boolean);
        assert.ok(chunks.length >= 1);
        for (const chunk of chunks) {
          const parsed = JSON.parse(chunk.slice('data: '.length)) as { modelVersion: string; responseId: string };
          assert.deepEqual([parsed.modelVersion, parsed.responseId], [meta.model, meta.responseId], "the call's own model and id");
        }
      }
    }
  }
});

/** The legacy completions codec as the harness drives it: one prompt's request, joined as its route joins it. */
const COMPLETIONS = {
  ...openaiCompletionsCodec,
  parse: (body: unknown) => {
    const parsed = openaiCompletionsCodec.parse(body);
    return { ...parsed, chat: parsed.requests[0]! };
  },
  joined: (stream: ChatStream, parsed: Parameters<typeof choicesPerPrompt>[0]) => joinChatStreams([stream], [choicesPerPrompt(parsed)]),
};

test('a legacy completions stream of a kept answer is written the same way, its identity its own; with echo it goes through the stages', async () => {
  for (const failCommit of [false, true]) {
    const call = harness<CompletionMeta>(failCommit, COMPLETIONS as never);
    const bodies = [
      { model: 'gpt-3.5-turbo-instruct', prompt: 'Tell me about lighthouses on rocky coasts.', max_tokens: 60 },
      { model: 'gpt-3.5-turbo-instruct', prompt: 'Name a colour.', n: 3, max_tokens: 20, stream_options: { include_usage: true } },
      { model: 'sim-echo', prompt: 'Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu.', max_tokens: 60 },
    ];
    for (const body of bodies) {
      for (const meta of [
        { id: 'cmpl-0123456789abcdefghijklmn', created: 1_764_230_000, model: body.model },
        { id: 'cmpl-"x"', created: 7, model: 'ünïcødé-model' },
      ]) {
        const staged = await call(body, false, meta);
        const kept = await call(body, true, meta);
        const name = `${body.model} n=${body.n ?? 1} ${JSON.stringify(meta)}${failCommit ? ', the charge failing' : ''}`;
        assert.ok(Buffer.isBuffer(kept.raw.writes[0]), `${name}: written as bytes`);
        assert.deepEqual(kept.raw.bytes(), staged.raw.bytes(), `${name}: the same bytes`);
        assert.deepEqual(kept.charges, staged.charges, `${name}: the same charges`);
        if (failCommit) continue;
        chunksCarry(kept.raw.bytes(), meta, name);
      }
    }
    const echo = { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test.', echo: true, max_tokens: 20 };
    const staged = await call(echo, false, META);
    const kept = await call(echo, true, META);
    assert.ok(kept.offered, 'the answer is kept');
    assert.ok(
      kept.raw.writes.every((chunk) => typeof chunk === 'string'),
      'echo: written through the stages',
    );
    assert.deepEqual(kept.raw.bytes(), staged.raw.bytes());
    assert.match(kept.raw.bytes().toString(), /Say this is a test\./);
  }
});

test("a joined stream keeps a lone stream's spans only when the join leaves its deltas as they are", async () => {
  const chat = new SimulatedChat();
  const parsed = openaiChatCodec.parse({ ...VARIANTS['plain'], stream: true });
  const call = { headers: {}, signal: new AbortController().signal } as unknown as Parameters<SimulatedChat['stream']>[1];
  await chat.stream(parsed.chat, call);
  const stream = await chat.stream(parsed.chat, call);
  assert.ok(stream.keptAtHand);
  assert.equal(joinChatStreams([stream], [1]).keptAtHand, stream.keptAtHand, 'one stream: its spans');
  assert.equal(joinChatStreams([stream, stream], [1, 1]).keptAtHand, undefined, 'two streams: renumbered, their usage summed');
  // A usage the sum would change (its reasoning tokens left out): the joined deltas are not the kept ones.
  const deltas = [...stream.keptAtHand.kept.deltas];
  const usage = deltas.pop()!;
  const detailed = new KeptStream([...deltas, { ...usage, reasoningTokens: 3 } as typeof usage]);
  const withDetails = { ...stream, atHand: stream.atHand, keptAtHand: { kept: detailed, spans: stream.keptAtHand.spans } };
  assert.equal(joinChatStreams([withDetails], [1]).keptAtHand, undefined, 'a usage with details: not kept');
});

test('a stage that puts a Hold of its own among its frames, or does not pass each mark on, is not kept rendered: its stream goes through the stages', async () => {
  const chat = new SimulatedChat();
  const parsed = openaiChatCodec.parse({ ...VARIANTS['plain'], stream: true });
  const call = { headers: {}, signal: new AbortController().signal } as unknown as Parameters<SimulatedChat['stream']>[1];
  await chat.stream(parsed.chat, call);
  const deltas = (await chat.stream(parsed.chat, call)).keptAtHand!.kept.deltas;
  /** A codec writing one frame per delta, each opening with the call's id; `misstep` changes what its stage passes on (a delta's frame or a mark). */
  const codec = (misstep: (item: string | Hold, index: number) => (string | Hold)[]): KeptStreamCodec<{ id: string }, string> => ({
    variant: 'test',
    *stage(items, meta) {
      let index = 0;
      for (const item of items) yield* misstep(item instanceof Hold ? item : `{"id":${JSON.stringify(meta.id)},"n":${index}}`, index++);
    },
    frame: (event) => `data: ${event}\n\n`,
    blank: { id: '' },
    probe: { id: 'probe' },
    identity: (meta) => `{"id":${JSON.stringify(meta.id)}`,
  });
  const written = (misstep: Parameters<typeof codec>[0]) => {
    const frames = keptFrames({ kept: new KeptStream(deltas), spans: () => [new KeptSpan(0, deltas.length)] }, codec(misstep), {
      id: 'call',
    });
    return frames && Buffer.concat([...frames].map((item) => (item as WrittenBytes).bytes)).toString();
  };
  const passed = written((item) => [item]);
  assert.ok(passed?.startsWith('data: {"id":"call","n":1}\n\n'), 'a stage that passes each mark on is kept rendered');
  assert.equal(
    written((item, index) => (index === 3 ? [new Hold(undefined), item] : [item])),
    undefined,
    'a Hold of its own',
  );
  assert.equal(
    written((item) => (item instanceof Hold ? [] : [item])),
    undefined,
    'marks not passed on',
  );
});

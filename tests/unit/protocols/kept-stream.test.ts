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
import { MAX_KEPT_STREAM_BYTES } from '../../../electron/gateway/protocols/neutral/kept-stream.ts';
import { writeSse } from '../../../electron/gateway/server/sse.ts';
import { streamFailure } from '../../../electron/gateway/server/stream-failure.ts';

/** A response that keeps each write as it was given (a string or bytes). */
class CapturedResponse extends EventEmitter {
  readonly writes: (string | Buffer)[] = [];
  writeHead() {}
  flushHeaders() {}
  write(chunk: string | Buffer) {
    if (chunk.length > 0) this.writes.push(chunk);
    return true;
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

const user = (content: string) => [{ role: 'user', content }];
const WEATHER = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/** Bodies whose streams differ in every way the bytes can: usage chunk, tool calls, legacy functions, several choices, text beyond ASCII. */
const VARIANTS: Record<string, Record<string, unknown>> = {
  plain: { model: 'gpt-4o-mini', messages: user('Tell me about lighthouses on rocky coasts.') },
  include_usage: {
    model: 'gpt-4o-mini',
    messages: user('Tell me about lighthouses on rocky coasts.'),
    stream_options: { include_usage: true },
  },
  'tool calls': {
    model: 'gpt-4o-mini',
    messages: user('What is the weather in Paris?'),
    tools: [{ type: 'function', function: WEATHER }],
    tool_choice: 'required',
    stream_options: { include_usage: true },
  },
  'legacy functions': {
    model: 'gpt-4o-mini',
    messages: user('What is the weather in Paris?'),
    functions: [WEATHER],
    function_call: { name: 'get_weather' },
  },
  'n=3': { model: 'gpt-4o-mini', messages: user('Name a colour.'), n: 3, stream_options: { include_usage: true } },
  'non-ASCII text and model': { model: 'sim-echo', messages: user('Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu.') },
};

/** A client protocol's codec as the harness drives it. */
type Codec<Meta> = {
  parse(body: unknown): { chat: Parameters<SimulatedChat['stream']>[0] };
} & Parameters<typeof streamEvents<never, Meta, never>>[0];

/** A call of `body` through the simulator, the metering and `codec` (OpenAI's unless told), written by the SSE writer: `whole` lets a kept answer go as its rendered bytes. */
function harness<Meta = CompletionMeta>(failCommit = false, codec: Codec<Meta> = openaiChatCodec as unknown as Codec<Meta>) {
  const chat = new SimulatedChat();
  return async (body: Record<string, unknown>, whole: boolean, meta: Meta) => {
    const charges: { usage: Usage; way: string }[] = [];
    let firstOutputs = 0;
    const billing = {
      chargeCommitted: (_principal: Principal, usage: Usage) => {
        charges.push({ usage, way: 'committed' });
        return failCommit ? Promise.reject(new Error('the disk is gone')) : Promise.resolve();
      },
      chargeAnswered: (_principal: Principal, usage: Usage) => void charges.push({ usage, way: 'answered' }),
    } as unknown as BillingService;
    const principal = { notes: { firstOutput: () => firstOutputs++, note() {} } } as unknown as Principal;
    const parsed = codec.parse({ ...body, stream: true });
    const call = { headers: {}, signal: new AbortController().signal } as unknown as Parameters<SimulatedChat['stream']>[1];
    const stream = await chat.stream(parsed.chat, call);
    const metered = new ChatMetering(billing).meter(
      stream,
      { principal, endpoint: '/v1/chat/completions', model: parsed.chat.model },
      () => 1,
    );
    const raw = new CapturedResponse();
    const reply = { hijack() {}, getHeaders: () => ({}), raw } as unknown as FastifyReply;
    const reported: unknown[] = [];
    const events = streamEvents(codec, metered, parsed as never, meta, whole);
    await writeSse(
      {} as FastifyRequest,
      reply,
      events,
      streamFailure('openai', (error) => reported.push(error)),
    );
    return { raw, charges, firstOutputs, reported };
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
    const chunks = kept.raw
      .bytes()
      .toString()
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'));
    for (const chunk of chunks) {
      const parsed = JSON.parse(chunk.slice('data: '.length)) as CompletionMeta;
      assert.deepEqual({ id: parsed.id, created: parsed.created, model: parsed.model }, meta);
    }
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

test(`a stream over ${MAX_KEPT_STREAM_BYTES} bytes is not kept rendered: it goes through the stages, the same bytes`, async () => {
  const call = harness();
  const long = Array.from({ length: 700 }, (_, index) => `word${index}`).join(' ');
  const body = { model: 'sim-echo', messages: user(long), max_tokens: 4000 };
  const staged = await call(body, false, META);
  const kept = await call(body, true, META);
  assert.ok(staged.raw.bytes().length > MAX_KEPT_STREAM_BYTES, `the stream is long: ${staged.raw.bytes().length} bytes`);
  assert.ok(
    kept.raw.writes.every((chunk) => typeof chunk === 'string'),
    'written through the stages',
  );
  assert.deepEqual(kept.raw.bytes(), staged.raw.bytes());
  assert.deepEqual(kept.charges, staged.charges);
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

// Integration tests of the simulated Anthropic Messages API, driven by the official @anthropic-ai/sdk as an unmodified client.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { postForFrames } from '../helpers/sse-frames.ts';

const MODEL = 'claude-sonnet-5';

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather of a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};

/** Checks a tool input against WEATHER_TOOL's schema. */
function assertWeatherInput(input: any): void {
  assert.equal(typeof input, 'object');
  assert.equal(typeof input.city, 'string');
  assert.ok(['celsius', 'fahrenheit'].includes(input.unit), `unit ${input.unit}`);
}

describe('Anthropic Messages API (simulate mode)', () => {
  let gw: TestGateway;
  let client: Anthropic;
  before(async () => {
    gw = await startGateway();
    client = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
  });
  after(() => gw.stop());

  const ask = (text: string, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) =>
    client.messages.create({ model: MODEL, max_tokens: 300, messages: [{ role: 'user', content: text }], ...extra });

  test('a message gets a readable text answer with end_turn and usage, charged to the token', async () => {
    const usedBefore = gw.gateway.context.tokens.list('local')[0]!.used;
    const message = await ask('Tell me about lighthouses.', { system: 'You are a helpful guide.' });
    assert.match(message.id, /^msg_/);
    assert.equal(message.type, 'message');
    assert.equal(message.role, 'assistant');
    assert.equal(message.model, MODEL);
    assert.equal(message.content.length, 1);
    const block = message.content[0]!;
    assert.equal(block.type, 'text');
    assert.match(block.type === 'text' ? block.text : '', /[A-Za-z]+ [a-z]+/);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.stop_sequence, null);
    assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
    assert.ok(gw.gateway.context.tokens.list('local')[0]!.used > usedBefore, 'the call was billed');
  });

  test('the same request gives the same answer', async () => {
    const first = await ask('Describe a quiet harbour at dawn.');
    const second = await ask('Describe a quiet harbour at dawn.');
    assert.deepEqual(second.content, first.content);
    assert.deepEqual(second.usage, first.usage);
  });

  test('the SDK stream helper rebuilds the same message from events in the documented order', async () => {
    const params = { model: MODEL, max_tokens: 300, messages: [{ role: 'user' as const, content: 'Explain tides briefly.' }] };
    const plain = await client.messages.create(params);
    const stream = client.messages.stream(params);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalMessage();
    assert.deepEqual(final.content, plain.content);
    assert.equal(final.stop_reason, 'end_turn');
    assert.deepEqual(final.usage.output_tokens, plain.usage.output_tokens);
    assert.equal(types[0], 'message_start');
    assert.equal(types[1], 'content_block_start');
    assert.ok(types.filter((type) => type === 'content_block_delta').length >= 2, 'text arrives in several deltas');
    assert.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
  });

  test('raw SSE frames are named events, with a ping, matching their data type', async () => {
    const { status, headers, frames } = await postForFrames(
      `${gw.url}/v1/messages`,
      { model: MODEL, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hi there' }] },
      { 'x-api-key': gw.token, 'anthropic-version': '2023-06-01' },
    );
    assert.equal(status, 200);
    assert.match(headers.get('content-type') ?? '', /^text\/event-stream/);
    for (const frame of frames) assert.equal(frame.event, frame.data.type);
    const names = frames.map((frame) => frame.event);
    assert.deepEqual(names.slice(0, 3), ['message_start', 'content_block_start', 'ping']);
    const start = frames[0]!.data.message;
    assert.deepEqual(start.content, []);
    assert.equal(start.stop_reason, null);
    const delta = frames.find((frame) => frame.event === 'message_delta')!.data;
    assert.equal(delta.delta.stop_reason, 'end_turn');
    assert.ok(delta.usage.output_tokens > 0);
  });

  test('a tool loop: forced tool_use with schema-valid input, then a text answer after the tool_result', async () => {
    const question = { role: 'user' as const, content: 'What is the weather in Lisbon?' };
    const first = await client.messages.create({
      model: MODEL,
      max_tokens: 300,
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'tool', name: 'get_weather' },
      messages: [question],
    });
    assert.equal(first.stop_reason, 'tool_use');
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    assert.ok(toolUse && toolUse.type === 'tool_use');
    assert.match(toolUse.id, /^toolu_/);
    assert.equal(toolUse.name, 'get_weather');
    assertWeatherInput(toolUse.input);

    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 300,
      tools: [WEATHER_TOOL],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '{"temp": 21, "sky": "clear"}' }] },
      ],
    });
    assert.equal(second.stop_reason, 'end_turn');
    assert.equal(second.content[0]?.type, 'text');
    assert.ok(second.content.every((block) => block.type === 'text'));
  });

  test('a streamed tool call arrives as input_json_delta fragments that parse to the same input', async () => {
    const params = {
      model: MODEL,
      max_tokens: 300,
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'any' as const },
      messages: [{ role: 'user' as const, content: 'Weather in Oslo please' }],
    };
    const plain = await client.messages.create(params);
    const stream = client.messages.stream(params);
    let fragments = 0;
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') fragments++;
    }
    const final = await stream.finalMessage();
    assert.ok(fragments >= 2, `fragments: ${fragments}`);
    assert.equal(final.stop_reason, 'tool_use');
    const plainTool = plain.content.find((block) => block.type === 'tool_use');
    const streamedTool = final.content.find((block) => block.type === 'tool_use');
    assert.ok(plainTool?.type === 'tool_use' && streamedTool?.type === 'tool_use');
    assertWeatherInput(streamedTool.input);
    assert.deepEqual(streamedTool.input, plainTool.input);
  });

  test('stop_sequences end the text before the sequence with stop_reason stop_sequence', async () => {
    const message = await client.messages.create({
      model: 'sim-echo',
      max_tokens: 100,
      stop_sequences: ['STOP'],
      messages: [{ role: 'user', content: 'alpha beta STOP gamma delta' }],
    });
    assert.equal(message.stop_reason, 'stop_sequence');
    assert.equal(message.stop_sequence, 'STOP');
    const block = message.content[0];
    assert.ok(block?.type === 'text');
    assert.equal(block.text.trim(), 'alpha beta');
  });

  test('max_tokens cuts the answer with stop_reason max_tokens', async () => {
    const message = await ask('Write a long story about the sea.', { max_tokens: 5 });
    assert.equal(message.stop_reason, 'max_tokens');
    assert.ok(message.usage.output_tokens <= 5, `output_tokens ${message.usage.output_tokens}`);
  });

  test('count_tokens gives the input tokens that messages.create reports', async () => {
    const params = { model: MODEL, system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Count these words for me' }] };
    const counted = await client.messages.countTokens(params);
    const created = await client.messages.create({ ...params, max_tokens: 50 });
    assert.ok(counted.input_tokens > 0);
    assert.equal(counted.input_tokens, created.usage.input_tokens);
  });

  test('a missing max_tokens is a BadRequestError with an Anthropic error body', async () => {
    await assert.rejects(
      // @ts-expect-error max_tokens is required, and the point here is to leave it out.
      client.messages.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError);
        assert.equal(error.status, 400);
        assert.deepEqual(Object.keys(error.error as object).sort(), ['error', 'type']);
        assert.equal((error.error as any).type, 'error');
        assert.equal((error.error as any).error.type, 'invalid_request_error');
        assert.match((error.error as any).error.message, /max_tokens/);
        return true;
      },
    );
  });

  test('x-api-key with any anthropic-version date works; a missing version header is a 400', async () => {
    const body = { model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] };
    const ok = await request(`${gw.url}/v1/messages`, 'POST', {
      body,
      headers: { 'x-api-key': gw.token, 'anthropic-version': '2023-06-01' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.type, 'message');
    const noVersion = await request(`${gw.url}/v1/messages`, 'POST', { body, headers: { 'x-api-key': gw.token } });
    assert.equal(noVersion.status, 400);
    assert.equal(noVersion.body.type, 'error');
    assert.equal(noVersion.body.error.type, 'invalid_request_error');
    assert.match(noVersion.body.error.message, /anthropic-version/);
  });

  test('a wrong key is an AuthenticationError', async () => {
    const stranger = new Anthropic({ baseURL: gw.url, apiKey: 'sk-gh-nope', maxRetries: 0 });
    await assert.rejects(
      stranger.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      Anthropic.AuthenticationError,
    );
  });

  test('fault headers surface as the SDK error classes', async () => {
    const create = (fault: string) =>
      client.messages.create(
        { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-gatehouse-fault': fault } },
      );
    await assert.rejects(create('529'), Anthropic.OverloadedError);
    await assert.rejects(create('500'), Anthropic.InternalServerError);
    await assert.rejects(create('429'), Anthropic.RateLimitError);
  });
});

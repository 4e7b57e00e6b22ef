// Integration tests of the simulated OpenAI Responses API (create, stream, retrieve, continuation), driven by the official openai SDK.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { request } from '../helpers/gateway.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

const MODEL = 'gpt-4.1-mini';

const WEATHER_TOOL = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather of a city',
  strict: true,
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};

/** Documented event order of a streamed text response. */
const TEXT_EVENTS = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
];

/** The event types with consecutive repeats collapsed. */
const collapse = (types: string[]) => types.filter((type, index) => type !== types[index - 1]);

describe('OpenAI Responses API (simulate mode)', () => {
  const suite = useOpenAIGateway();

  test('a string input with instructions gets a completed message with usage, billed, and is deterministic', async () => {
    const usedBefore = suite.gw.gateway.context.tokens.list('local')[0]!.used;
    const params = { model: MODEL, instructions: 'Answer as a poet.', input: 'Describe the night sky.' };
    const response = await suite.client.responses.create(params);
    assert.match(response.id, /^resp_/);
    assert.equal(response.object, 'response');
    assert.equal(response.status, 'completed');
    assert.equal(response.instructions, 'Answer as a poet.');
    assert.equal(response.output.length, 1);
    const message = response.output[0]!;
    assert.equal(message.type, 'message');
    assert.ok(message.type === 'message' && message.content[0]?.type === 'output_text');
    assert.match(response.output_text, /[A-Za-z]+ [a-z]+/);
    const usage = response.usage!;
    assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0);
    assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
    assert.ok(suite.gw.gateway.context.tokens.list('local')[0]!.used > usedBefore, 'the call was billed');

    const again = await suite.client.responses.create(params);
    assert.equal(again.output_text, response.output_text);
    assert.notEqual(again.id, response.id);
  });

  test('item input with input_text parts works like a string', async () => {
    const asString = await suite.client.responses.create({ model: MODEL, input: 'Name three colours.' });
    const asItems = await suite.client.responses.create({
      model: MODEL,
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Name three colours.' }] }],
    });
    assert.equal(asItems.output_text, asString.output_text);
  });

  test('previous_response_id continues a stored conversation; retrieve returns the stored response', async () => {
    const first = await suite.client.responses.create({ model: MODEL, input: 'My favourite city is Kyoto.' });
    const second = await suite.client.responses.create({ model: MODEL, previous_response_id: first.id, input: 'Which city did I name?' });
    assert.equal(second.previous_response_id, first.id);
    const alone = await suite.client.responses.create({ model: MODEL, input: 'Which city did I name?' });
    // The continued call's prompt holds the whole earlier exchange.
    assert.ok(
      second.usage!.input_tokens >= alone.usage!.input_tokens + first.usage!.input_tokens + first.usage!.output_tokens - 8,
      `continued ${second.usage!.input_tokens}, alone ${alone.usage!.input_tokens}, first ${first.usage!.input_tokens}+${first.usage!.output_tokens}`,
    );
    const echoed = await suite.client.responses.create({ model: 'sim-echo', previous_response_id: second.id, input: 'echo me' });
    assert.equal(echoed.output_text, 'echo me');

    const stored = await suite.client.responses.retrieve(first.id);
    assert.equal(stored.id, first.id);
    assert.deepEqual(stored.output, first.output);
  });

  test('stored responses are per account; store:false responses cannot be continued', async () => {
    const mine = await suite.client.responses.create({ model: MODEL, input: 'A private note.' });
    const other = suite.gw.gateway.context.tokens.create({ account: 'someone-else' });
    const stranger = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: other.secret, maxRetries: 0 });
    await assert.rejects(stranger.responses.retrieve(mine.id), OpenAI.NotFoundError);
    await assert.rejects(
      stranger.responses.create({ model: MODEL, previous_response_id: mine.id, input: 'continue' }),
      OpenAI.NotFoundError,
    );
    const unstored = await suite.client.responses.create({ model: MODEL, input: 'Forget this.', store: false });
    assert.equal((unstored as unknown as { store: boolean }).store, false, 'the Response object echoes store');
    await assert.rejects(suite.client.responses.retrieve(unstored.id), OpenAI.NotFoundError);
    await assert.rejects(
      suite.client.responses.create({ model: MODEL, previous_response_id: unstored.id, input: 'and?' }),
      OpenAI.NotFoundError,
    );
    await suite.client.responses.delete(mine.id);
    await assert.rejects(suite.client.responses.retrieve(mine.id), OpenAI.NotFoundError);
  });

  test('a function-calling round trip: function_call item, then function_call_output gets a message', async () => {
    const first = await suite.client.responses.create({
      model: MODEL,
      input: 'What is the weather in Paris?',
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.equal(call.name, 'get_weather');
    assert.ok(call.call_id);
    const args = JSON.parse(call.arguments);
    assert.equal(typeof args.city, 'string');
    assert.ok(['celsius', 'fahrenheit'].includes(args.unit));

    const second = await suite.client.responses.create({
      model: MODEL,
      previous_response_id: first.id,
      tools: [WEATHER_TOOL],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 18}' }],
    });
    assert.equal(second.status, 'completed');
    assert.ok(second.output.every((item) => item.type === 'message'));
    assert.match(second.output_text, /\w/);

    // The same loop with the history sent by hand instead of previous_response_id.
    const manual = await suite.client.responses.create({
      model: MODEL,
      tools: [WEATHER_TOOL],
      input: [
        { role: 'user', content: 'What is the weather in Paris?' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 18}' },
      ],
    });
    assert.ok(manual.output.every((item) => item.type === 'message'));
  });

  test('text.format json_schema gives JSON valid for the schema', async () => {
    const response = await suite.client.responses.create({
      model: MODEL,
      input: 'Give me a book recommendation.',
      text: {
        format: {
          type: 'json_schema',
          name: 'book',
          strict: true,
          schema: {
            type: 'object',
            properties: { title: { type: 'string' }, year: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
            required: ['title', 'year', 'tags'],
            additionalProperties: false,
          },
        },
      },
    });
    const book = JSON.parse(response.output_text);
    assert.equal(typeof book.title, 'string');
    assert.ok(Number.isInteger(book.year));
    assert.ok(Array.isArray(book.tags) && book.tags.every((tag: unknown) => typeof tag === 'string'));
    assert.equal((response.text?.format as any)?.type, 'json_schema');
  });

  test('max_output_tokens ends the response as incomplete with reason max_output_tokens', async () => {
    const long = 'word '.repeat(60).trim();
    const response = await suite.client.responses.create({ model: 'sim-echo', input: long, max_output_tokens: 16 });
    assert.equal(response.status, 'incomplete');
    assert.equal(response.incomplete_details?.reason, 'max_output_tokens');
    assert.ok(response.usage!.output_tokens <= 16);
    assert.ok(response.output_text.length < long.length);

    const stream = suite.client.responses.stream({ model: 'sim-echo', input: long, max_output_tokens: 16 });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    assert.equal(types.at(-1), 'response.incomplete');
    const final = await stream.finalResponse();
    assert.equal(final.status, 'incomplete');
    assert.equal(final.output_text, response.output_text);

    await assert.rejects(suite.client.responses.create({ model: MODEL, input: 'x', max_output_tokens: 3 }), OpenAI.BadRequestError);
  });

  test('the stream helper sees the documented events with increasing sequence numbers', async () => {
    const params = { model: MODEL, input: 'Tell me about comets.' };
    const plain = await suite.client.responses.create(params);
    const stream = suite.client.responses.stream(params);
    const events: { type: string; sequence_number: number }[] = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();
    assert.deepEqual(collapse(events.map((event) => event.type)), TEXT_EVENTS);
    assert.ok(events.filter((event) => event.type === 'response.output_text.delta').length >= 2);
    events.forEach((event, index) => assert.equal(event.sequence_number, index));
    assert.equal(final.output_text, plain.output_text);
    assert.equal(final.status, 'completed');
    const created = events[0] as any;
    assert.equal(created.response.id, final.id);
    assert.equal(created.response.status, 'in_progress');
    const retrieved = await suite.client.responses.retrieve(final.id);
    assert.equal(retrieved.output_text, plain.output_text);
  });

  test('a streamed function call sends argument deltas and a done event with the whole arguments', async () => {
    const stream = await suite.client.responses.create({
      model: MODEL,
      input: 'Weather in Madrid?',
      tools: [WEATHER_TOOL],
      tool_choice: 'required',
      stream: true,
    });
    const types: string[] = [];
    let deltas = '';
    let done: any;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.function_call_arguments.delta') deltas += event.delta;
      if (event.type === 'response.function_call_arguments.done') done = event;
    }
    assert.deepEqual(collapse(types), [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.equal(done.arguments, deltas);
    assert.equal(typeof JSON.parse(deltas).city, 'string');
  });

  test('faults: a counted 429 is retried by the SDK and then succeeds; a cut or broken stream is an SDK error', async () => {
    const retrying = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: suite.gw.token, maxRetries: 1 });
    const response = await retrying.responses.create(
      { model: MODEL, input: 'Retry me once.' },
      { headers: { 'x-gatehouse-fault': '429*1' } },
    );
    assert.equal(response.status, 'completed');
    await assert.rejects(
      suite.client.responses.create({ model: MODEL, input: 'hi' }, { headers: { 'x-gatehouse-fault': '429' } }),
      OpenAI.RateLimitError,
    );
    for (const fault of ['disconnect', 'malformed']) {
      const stream = suite.client.responses.stream(
        { model: MODEL, input: 'Tell me a long story.' },
        { headers: { 'x-gatehouse-fault': fault } },
      );
      await assert.rejects(
        (async () => {
          for await (const _event of stream);
        })(),
        OpenAI.OpenAIError,
        fault,
      );
    }
  });

  test('validation errors use the OpenAI error shape', async () => {
    const missingModel = await request(`${suite.gw.url}/v1/responses`, 'POST', { token: suite.gw.token, body: { input: 'hi' } });
    assert.equal(missingModel.status, 400);
    assert.equal(missingModel.body.error.type, 'invalid_request_error');
    assert.equal(missingModel.body.error.param, 'model');
    await assert.rejects(
      suite.client.responses.create({ model: MODEL, input: 'hi', tools: [WEATHER_TOOL], tool_choice: { type: 'function', name: 'nope' } }),
      OpenAI.BadRequestError,
    );
  });
});

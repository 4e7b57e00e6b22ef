// Integration tests of /v1/chat/completions and /v1/models through the official openai SDK: streaming, tools, JSON output, limits.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { validateAgainstSchema } from '../helpers/json-schema-check.ts';
import { request } from '../helpers/gateway.ts';
import { CHAT_COMPLETION, CHAT_COMPLETION_CHUNK, shapeErrors } from '../helpers/openai-shapes.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';
import { postForFrames } from '../helpers/sse-frames.ts';

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 7 },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};

describe('chat completions', () => {
  const suite = useOpenAIGateway();

  test('a plain call answers readable text with usage, and the same request answers the same', async () => {
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Explain database indexes briefly.' }] };
    const first = await suite.client.chat.completions.create(body);
    const second = await suite.client.chat.completions.create(body);
    assert.equal(first.object, 'chat.completion');
    assert.equal(first.model, 'gpt-4o-mini');
    const text = first.choices[0]!.message.content!;
    assert.match(text, /^[A-Z][^.]+\.( [A-Z][^.]+\.)+$/, 'sentences, not noise');
    assert.match(text.toLowerCase(), /database|indexes/, 'about the question');
    assert.equal(first.choices[0]!.finish_reason, 'stop');
    assert.equal(second.choices[0]!.message.content, text);
    assert.ok(first.usage!.prompt_tokens > 0 && first.usage!.completion_tokens > 0);
    assert.equal(first.usage!.total_tokens, first.usage!.prompt_tokens + first.usage!.completion_tokens);
    const seeded = await suite.client.chat.completions.create({ ...body, seed: 7 });
    assert.notEqual(seeded.choices[0]!.message.content, text, 'another seed, another answer');
  });

  test('sim-echo answers the last user message verbatim', async () => {
    const reply = await suite.client.chat.completions.create({
      model: 'sim-echo',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'ping 42 ✓' }] },
      ],
    });
    assert.equal(reply.choices[0]!.message.content, 'ping 42 ✓');
  });

  test('streaming sends one id, the role first, content pieces, finish_reason, the usage chunk and [DONE]', async () => {
    const stream = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'Tell me about rivers and mountains.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const ids = new Set(chunks.map((chunk) => chunk.id));
    assert.equal(ids.size, 1);
    for (const chunk of chunks) {
      assert.equal(chunk.object, 'chat.completion.chunk');
      assert.equal(typeof chunk.created, 'number');
      assert.equal(chunk.model, 'sim-chat');
    }
    assert.equal(chunks[0]!.choices[0]!.delta.role, 'assistant');
    const usageChunk = chunks.at(-1)!;
    assert.deepEqual(usageChunk.choices, []);
    assert.ok(usageChunk.usage!.completion_tokens > 0);
    const finish = chunks.at(-2)!;
    assert.equal(finish.choices[0]!.finish_reason, 'stop');
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
    const streamed = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    const whole = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'Tell me about rivers and mountains.' }],
    });
    assert.equal(streamed, whole.choices[0]!.message.content, 'the stream spells the same answer');
    assert.equal(usageChunk.usage!.completion_tokens, chunks.filter((c) => c.choices[0]?.delta.content).length);
  });

  test('the raw stream ends with data: [DONE]', async () => {
    const response = await fetch(`${suite.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.gw.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    assert.match(response.headers.get('content-type')!, /^text\/event-stream/);
    const text = await response.text();
    assert.ok(text.endsWith('data: [DONE]\n\n'));
    assert.ok(
      text
        .split('\n\n')
        .filter(Boolean)
        .every((frame) => frame.startsWith('data: ')),
    );
  });

  test('a tool loop: the named tool is called with schema-valid arguments, and after its result the answer is text', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Use get_weather for Paris please.' }];
    const first = await suite.client.chat.completions.create({ model: 'gpt-4o', messages, tools: [WEATHER_TOOL] });
    const choice = first.choices[0]!;
    assert.equal(choice.finish_reason, 'tool_calls');
    const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(validateAgainstSchema(JSON.parse(call.function.arguments), WEATHER_TOOL.function.parameters), []);
    messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: '{"temp": 18}' });
    const second = await suite.client.chat.completions.create({ model: 'gpt-4o', messages, tools: [WEATHER_TOOL] });
    assert.equal(second.choices[0]!.finish_reason, 'stop');
    assert.match(second.choices[0]!.message.content!, /get_weather result is \{"temp": 18\}/);
  });

  test('tool_choice forces a call; streamed calls come as indexed argument fragments', async () => {
    const stream = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'hello' }],
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      stream: true,
    });
    let name = '';
    let args = '';
    let fragments = 0;
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        assert.equal(delta.index, 0);
        name += delta.function?.name ?? '';
        if (delta.function?.arguments) fragments += 1;
        args += delta.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(name, 'get_weather');
    assert.ok(fragments > 1);
    assert.deepEqual(validateAgainstSchema(JSON.parse(args), WEATHER_TOOL.function.parameters), []);
    assert.equal(finish, 'tool_calls');
    const none = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'call get_weather' }],
      tools: [WEATHER_TOOL],
      tool_choice: 'none',
    });
    assert.equal(none.choices[0]!.finish_reason, 'stop');
  });

  test('json_schema output is valid JSON that validates; json_object is a JSON object', async () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 3 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 4 },
        rating: { type: 'number', minimum: 0, maximum: 5 },
        published: { type: 'string', format: 'date' },
        author: { $ref: '#/$defs/person' },
      },
      required: ['title', 'tags', 'rating', 'published', 'author'],
      additionalProperties: false,
      $defs: { person: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    };
    const reply = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'Describe a book' }],
      response_format: { type: 'json_schema', json_schema: { name: 'book', schema, strict: true } },
    });
    assert.deepEqual(validateAgainstSchema(JSON.parse(reply.choices[0]!.message.content!), schema), []);
    const object = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'Describe a book' }],
      response_format: { type: 'json_object' },
    });
    const parsed = JSON.parse(object.choices[0]!.message.content!);
    assert.equal(typeof parsed, 'object');
    assert.ok(!Array.isArray(parsed));
  });

  test('n, stop and max_tokens behave as on the real API', async () => {
    const many = await suite.client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'ideas for a garden' }],
      n: 3,
    });
    assert.equal(many.choices.length, 3);
    assert.deepEqual(
      many.choices.map((c) => c.index),
      [0, 1, 2],
    );
    assert.equal(new Set(many.choices.map((c) => c.message.content)).size, 3);

    const echo = { model: 'sim-echo', messages: [{ role: 'user' as const, content: 'one two. three four' }] };
    const stopped = await suite.client.chat.completions.create({ ...echo, stop: ['.', 'four'] });
    assert.equal(stopped.choices[0]!.message.content, 'one two');
    assert.equal(stopped.choices[0]!.finish_reason, 'stop');
    const cut = await suite.client.chat.completions.create({ ...echo, max_completion_tokens: 2 });
    assert.equal(cut.choices[0]!.message.content, 'one two');
    assert.equal(cut.choices[0]!.finish_reason, 'length');
    assert.equal(cut.usage!.completion_tokens, 2);
  });

  test('every streamed chunk and every completion object has the shape of the API reference', async () => {
    const url = `${suite.gw.url}/v1/chat/completions`;
    const auth = { authorization: `Bearer ${suite.gw.token}` };
    const bodies = [
      {
        model: 'sim-chat',
        messages: [{ role: 'user', content: 'Compare rivers and lakes.' }],
        n: 2,
        stream_options: { include_usage: true },
      },
      { model: 'sim-chat', messages: [{ role: 'user', content: 'weather?' }], tools: [WEATHER_TOOL], tool_choice: 'required' },
      {
        model: 'sim-chat',
        messages: [{ role: 'user', content: 'weather?' }],
        functions: [WEATHER_TOOL.function],
        function_call: { name: 'get_weather' },
      },
      { model: 'sim-echo', messages: [{ role: 'user', content: 'a b c d e' }], max_tokens: 2 },
    ];
    for (const body of bodies) {
      const label = JSON.stringify(body).slice(0, 80);
      const { frames } = await postForFrames(url, { ...body, stream: true }, auth);
      assert.equal(frames.at(-1)!.data, '[DONE]', label);
      const chunks = frames.slice(0, -1).map((frame) => frame.data);
      assert.deepEqual(
        chunks.flatMap((chunk, i) => shapeErrors(chunk, CHAT_COMPLETION_CHUNK, `${label} chunk ${i}`)),
        [],
      );
      assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1, label);
      const choiceChunks = chunks.filter((chunk) => chunk.choices.length > 0);
      for (let index = 0; index < (body.n ?? 1); index++) {
        const own = choiceChunks.filter((chunk) => chunk.choices[0].index === index).map((chunk) => chunk.choices[0]);
        assert.equal(own[0].delta.role, 'assistant', `${label}: role first`);
        assert.ok(
          own.slice(1).every((choice: { delta: object }) => !('role' in choice.delta)),
          `${label}: role once`,
        );
        assert.ok(
          own.slice(0, -1).every((choice: { finish_reason: unknown }) => choice.finish_reason === null),
          label,
        );
        assert.notEqual(own.at(-1).finish_reason, null, `${label}: finish_reason last`);
      }
      if (body.stream_options) {
        assert.deepEqual(chunks.at(-1).choices, [], label);
        assert.ok(
          chunks.slice(0, -1).every((chunk) => chunk.usage === null),
          label,
        );
      } else {
        assert.ok(
          chunks.every((chunk) => !('usage' in chunk)),
          label,
        );
      }
      const { stream_options: _ignored, ...plain } = body as typeof body & { stream_options?: unknown };
      const whole = await request(url, 'POST', { token: suite.gw.token, body: plain });
      assert.equal(whole.status, 200, label);
      assert.deepEqual(shapeErrors(whole.body, CHAT_COMPLETION, label), []);
    }
  });

  test('the deprecated functions / function_call fields answer with function_call, then text after the function result', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Oslo? Use get_weather.' }];
    const first = await suite.client.chat.completions.create({ model: 'gpt-3.5-turbo', messages, functions: [WEATHER_TOOL.function] });
    const choice = first.choices[0]!;
    assert.equal(choice.finish_reason, 'function_call');
    assert.equal(choice.message.tool_calls, undefined);
    assert.equal(choice.message.function_call!.name, 'get_weather');
    assert.deepEqual(validateAgainstSchema(JSON.parse(choice.message.function_call!.arguments), WEATHER_TOOL.function.parameters), []);
    messages.push(choice.message, { role: 'function', name: 'get_weather', content: 'sunny, 21 degrees' });
    const second = await suite.client.chat.completions.create({ model: 'gpt-3.5-turbo', messages, functions: [WEATHER_TOOL.function] });
    assert.equal(second.choices[0]!.finish_reason, 'stop');
    assert.match(second.choices[0]!.message.content!, /get_weather result is sunny, 21 degrees/);
    const none = await suite.client.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: messages.slice(0, 1),
      functions: [WEATHER_TOOL.function],
      function_call: 'none',
    });
    assert.equal(none.choices[0]!.finish_reason, 'stop');
  });

  test('invalid requests are 400s in the OpenAI shape naming the parameter', async () => {
    const cases: [unknown, string][] = [
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: 'm' }, 'messages'],
      [{ model: 'm', messages: [] }, 'messages'],
      [{ model: 'm', messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], n: 0 }, 'n'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 'ten' }, 'max_tokens'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'yaml' } }, 'response_format.type'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], stream_options: { include_usage: true } }, 'stream_options'],
      [
        {
          model: 'm',
          messages: [{ role: 'user', content: 'x' }],
          tools: [WEATHER_TOOL],
          tool_choice: { type: 'function', function: { name: 'nope' } },
        },
        'tool_choice',
      ],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ model: 'm', messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
      [{ model: 'm', messages: [{ role: 'user' }] }, 'messages[0].content'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], tool_choice: 'auto' }, 'tool_choice'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [] }, 'tools'],
    ];
    for (const [body, param] of cases) {
      const error = await suite.client.chat.completions.create(body as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, JSON.stringify(body));
      assert.equal(error.param, param, JSON.stringify(body));
    }
  });

  test('models are listed in the OpenAI, Anthropic and Gemini shapes', async () => {
    const list = await suite.client.models.list();
    const ids = list.data.map((model) => model.id);
    for (const id of ['sim-chat', 'sim-embed', 'sim-image', 'sim-tts', 'sim-stt', 'sim-rerank', 'sim-3d', 'sim-realtime'])
      assert.ok(ids.includes(id), id);
    assert.equal((await suite.client.models.retrieve('any-model-name')).id, 'any-model-name');
    const anthropic = await request(`${suite.gw.url}/v1/models`, 'GET', {
      token: suite.gw.token,
      headers: { 'anthropic-version': '2023-06-01' },
    });
    assert.equal(anthropic.body.data[0].type, 'model');
    assert.equal(anthropic.body.has_more, false);
    assert.equal(anthropic.body.first_id, 'sim-chat');
    const gemini = await request(`${suite.gw.url}/v1beta/models?key=${suite.gw.token}`, 'GET');
    assert.equal(gemini.body.models[0].name, 'models/sim-chat');
    assert.ok(gemini.body.models[0].supportedGenerationMethods.includes('generateContent'));
  });

  test('every call is billed, and a token whose quota is used up gets 403', async () => {
    const { tokens, db } = suite.gw.gateway.context;
    // A call that could cost more than the quota left is refused before it starts, so the quota allows the first call whole.
    const limited = tokens.create({ account: 'local', quota: 0.1 });
    const spender = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: limited.secret, maxRetries: 0 });
    await spender.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'spend' }] });
    tokens.update(limited.token.token_id, { quota: 0.000001 });
    const rows = db.prepare('SELECT * FROM usage_records WHERE token_id = ?').all(limited.token.token_id) as {
      amount_micros: number;
      input_tokens: number;
    }[];
    assert.equal(rows.length, 1);
    assert.ok(rows[0]!.amount_micros > 0 && rows[0]!.input_tokens > 0);
    const error = await spender.chat.completions
      .create({ model: 'sim-chat', messages: [{ role: 'user', content: 'again' }] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.PermissionDeniedError);
    assert.match(error.message, /quota/);
  });
});

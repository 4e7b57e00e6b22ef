// Unit tests of the OpenAI chat completions outbound codec on the API's own request, answer and chunk shapes (OpenAI's reference, and DeepSeek, vLLM and OpenRouter where they differ).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import type { ChatRequest } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { collectChat, type ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';
import { openaiChatOutbound as codec } from '../../../electron/gateway/protocols/openai/outbound/chat-codec.ts';

async function* eventsOf(events: unknown[]): AsyncGenerator<unknown> {
  yield* events;
}
async function deltasOf(events: unknown[]): Promise<ChatDelta[]> {
  const list: ChatDelta[] = [];
  for await (const delta of codec.deltas(eventsOf(events))) list.push(delta);
  return list;
}
/** A `chat.completion.chunk` with one choice, as the API streams it. */
const chunk = (delta: Record<string, unknown>, finish: string | null = null, index = 0) => ({
  id: 'chatcmpl-123',
  object: 'chat.completion.chunk',
  created: 1694268190,
  model: 'gpt-4o-mini',
  system_fingerprint: 'fp_44709d6fcb',
  choices: [{ index, delta, logprobs: null, finish_reason: finish }],
});

describe('request', () => {
  const weather = {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  };

  test('writes every field chat completions has a name for', () => {
    const request: ChatRequest = {
      model: 'front-name',
      system: 'Be brief.',
      turns: [
        {
          role: 'user',
          text: 'What is in these?',
          parts: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', url: 'https://example.com/cat.png' },
            { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
          ],
        },
        {
          role: 'assistant',
          text: '',
          reasoning: [{ text: 'The user wants the weather.' }],
          toolCalls: [{ id: 'call_abc', name: 'get_weather', arguments: '{"city":"Rome"}' }],
        },
        { role: 'tool', toolCallId: 'call_abc', name: 'get_weather', text: 'sunny', isError: false },
      ],
      tools: [weather],
      toolChoice: { name: 'get_weather' },
      parallelToolCalls: false,
      format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
      maxTokens: 300,
      stop: ['END'],
      seed: 7,
      n: 1,
      temperature: 0.3,
      topP: 0.8,
      reasoning: { effort: 'low' },
    };
    assert.deepEqual(codec.request(request, { model: 'gpt-4o-mini', stream: true }), {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'The user wants the weather.',
          tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_abc', content: 'sunny' },
      ],
      tools: [{ type: 'function', function: weather }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
      max_completion_tokens: 300,
      stop: ['END'],
      seed: 7,
      n: 1,
      temperature: 0.3,
      top_p: 0.8,
      reasoning_effort: 'low',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('a plain call sends no stream fields, no tools and the text format as the default', () => {
    const body = codec.request(
      { model: 'x', turns: [{ role: 'user', text: 'hi' }], format: { type: 'text' } },
      { model: 'up', stream: false },
    );
    assert.deepEqual(body, { model: 'up', messages: [{ role: 'user', content: 'hi' }] });
  });

  test('json_object mode, and a schema without a name gets one (the API requires it)', () => {
    const base = { model: 'x', turns: [{ role: 'user' as const, text: 'hi' }] };
    assert.deepEqual((codec.request({ ...base, format: { type: 'json_object' } }, { model: 'up', stream: false }) as any).response_format, {
      type: 'json_object',
    });
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    assert.deepEqual(
      (codec.request({ ...base, format: { type: 'json_schema', schema } }, { model: 'up', stream: false }) as any).response_format,
      {
        type: 'json_schema',
        json_schema: { name: 'response', schema },
      },
    );
  });

  test('a thinking budget becomes the nearest effort; a zero budget (thinking off) asks for none', () => {
    const effort = (budgetTokens: number) =>
      (
        codec.request(
          { model: 'x', turns: [{ role: 'user', text: 'hi' }], reasoning: { budgetTokens } },
          { model: 'up', stream: false },
        ) as any
      ).reasoning_effort;
    assert.equal(effort(1024), 'low');
    assert.equal(effort(4000), 'medium');
    assert.equal(effort(32000), 'high');
    assert.equal(effort(0), undefined);
  });

  test('reasoning from another family keeps its text across turns; signatures and redacted data do not cross', () => {
    const body = codec.request(
      {
        model: 'x',
        turns: [
          { role: 'user', text: 'hi' },
          {
            role: 'assistant',
            text: 'Hello.',
            reasoning: [
              { text: 'Greet back.', signature: 'EqQBCkYIARgCIkD', origin: 'anthropic' },
              { text: '', data: 'EmwKAhgBEgy3va3pzix', origin: 'anthropic' },
              { text: 'Keep it short.', signature: 'CiQB0e2Kb', origin: 'gemini' },
            ],
          },
          { role: 'user', text: 'again' },
        ],
      },
      { model: 'up', stream: false },
    ) as any;
    assert.deepEqual(body.messages[1], { role: 'assistant', content: 'Hello.', reasoning_content: 'Greet back.\n\nKeep it short.' });
    assert.ok(!JSON.stringify(body).includes('EqQBCkYIARgCIkD') && !JSON.stringify(body).includes('EmwKAhgBEgy3va3pzix'));
  });

  test('more than 4 stop sequences is a 400 naming stop and the upstream protocol', () => {
    assert.throws(
      () =>
        codec.request(
          { model: 'x', turns: [{ role: 'user', text: 'hi' }], stop: ['a', 'b', 'c', 'd', 'e'] },
          { model: 'up', stream: false },
        ),
      (error: unknown) =>
        error instanceof GatewayError &&
        error.kind === 'invalid_request' &&
        error.param === 'stop' &&
        /OpenAI chat completions/.test(error.message),
    );
  });
});

describe('result', () => {
  test('reads a completion with parallel tool calls and usage details (the API reference shape)', () => {
    const result = codec.result({
      id: 'chatcmpl-abc123',
      object: 'chat.completion',
      created: 1699896916,
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 82,
        completion_tokens: 17,
        total_tokens: 99,
        prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
    assert.deepEqual(result, {
      choices: [
        {
          text: '',
          toolCalls: [
            { id: 'call_1', name: 'get_weather', arguments: '{"city":"Rome"}' },
            { id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
          finishReason: 'tool_calls',
        },
      ],
      usage: { inputTokens: 82, outputTokens: 17, cachedInputTokens: 64 },
    });
  });

  test("reads DeepSeek's reasoning_content and cache hits, OpenRouter's reasoning, vLLM's stop string, a refusal and content_filter", () => {
    const deepseek = codec.result({
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: '9.8 is larger.', reasoning_content: 'Compare 9.11 and 9.8.' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 40, prompt_cache_hit_tokens: 12, completion_tokens_details: { reasoning_tokens: 30 } },
    });
    assert.deepEqual(deepseek.choices[0]!.reasoning, [{ text: 'Compare 9.11 and 9.8.' }]);
    assert.deepEqual(deepseek.usage, { inputTokens: 20, outputTokens: 40, cachedInputTokens: 12, reasoningTokens: 30 });
    const openrouter = codec.result({
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok', reasoning: 'Think.' }, finish_reason: 'stop' }],
    });
    assert.deepEqual(openrouter.choices[0]!.reasoning, [{ text: 'Think.' }]);
    const vllm = codec.result({
      choices: [{ index: 0, message: { role: 'assistant', content: 'one two' }, finish_reason: 'stop', stop_reason: 'END' }],
    });
    assert.equal(vllm.choices[0]!.finishReason, 'stop_sequence');
    assert.equal(vllm.choices[0]!.stopSequence, 'END');
    const refused = codec.result({
      choices: [
        { index: 0, message: { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." }, finish_reason: 'stop' },
      ],
    });
    assert.equal(refused.choices[0]!.text, "I'm sorry, I can't help with that.");
    const filtered = codec.result({
      choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }],
    });
    assert.equal(filtered.choices[0]!.finishReason, 'content_filter');
  });

  test('an answer without choices is an upstream failure', () => {
    assert.throws(
      () => codec.result({ object: 'error' }),
      (error: unknown) => error instanceof GatewayError && error.kind === 'upstream_failed',
    );
  });
});

describe('deltas', () => {
  test('a streamed answer with two parallel tool calls, their arguments by index, and the usage chunk', async () => {
    const events = [
      chunk({ role: 'assistant', content: null, refusal: null }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Rome"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      { ...chunk({}), choices: [], usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 } },
    ];
    assert.deepEqual(await deltasOf(events), [
      { type: 'tool_call', choice: 0, call: 0, id: 'call_1', name: 'get_weather' },
      { type: 'tool_arguments', choice: 0, call: 0, fragment: '{"city":' },
      { type: 'tool_call', choice: 0, call: 1, id: 'call_2', name: 'get_time' },
      { type: 'tool_arguments', choice: 0, call: 0, fragment: '"Rome"}' },
      { type: 'tool_arguments', choice: 0, call: 1, fragment: '{}' },
      { type: 'finish', choice: 0, reason: 'tool_calls' },
      { type: 'usage', inputTokens: 30, outputTokens: 12 },
    ]);
  });

  test("DeepSeek's reasoning_content and OpenRouter's reasoning deltas become reasoning part 0, before the text", async () => {
    const deepseek = await deltasOf([
      chunk({ role: 'assistant', content: null, reasoning_content: '' }),
      chunk({ content: null, reasoning_content: 'Compare' }),
      chunk({ content: null, reasoning_content: ' them.' }),
      chunk({ content: '9.8', reasoning_content: null }),
      chunk({ content: '' }, 'stop'),
    ]);
    assert.deepEqual(deepseek, [
      { type: 'reasoning', choice: 0, part: 0, text: 'Compare' },
      { type: 'reasoning', choice: 0, part: 0, text: ' them.' },
      { type: 'text', choice: 0, text: '9.8' },
      { type: 'finish', choice: 0, reason: 'stop' },
    ]);
    const openrouter = await deltasOf([
      chunk({ role: 'assistant', content: '', reasoning: 'Hmm.', reasoning_details: [] }),
      chunk({ content: 'ok' }, 'stop'),
    ]);
    assert.deepEqual(openrouter.slice(0, 1), [{ type: 'reasoning', choice: 0, part: 0, text: 'Hmm.' }]);
  });

  test('reasoning read from one turn goes back as reasoning_content on the next', async () => {
    const answer = await collectChat(
      codec.deltas(
        eventsOf([
          chunk({ reasoning_content: 'Call the tool.' }),
          chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{}' } }] }),
          chunk({}, 'tool_calls'),
        ]),
      ),
    );
    const choice = answer.choices[0]!;
    const next = codec.request(
      {
        model: 'x',
        turns: [
          { role: 'user', text: 'go' },
          { role: 'assistant', text: choice.text, toolCalls: choice.toolCalls, ...(choice.reasoning && { reasoning: choice.reasoning }) },
          { role: 'tool', toolCallId: 'c1', text: 'done' },
        ],
      },
      { model: 'up', stream: false },
    ) as any;
    assert.equal(next.messages[1].reasoning_content, 'Call the tool.');
    assert.equal(next.messages[1].tool_calls[0].id, 'c1');
  });

  test("usage on every chunk (vLLM's continuous usage) gives one usage delta, the last; a stop string is a stop_sequence finish", async () => {
    const withUsage = (event: object, completion: number) => ({
      ...event,
      usage: { prompt_tokens: 5, completion_tokens: completion, total_tokens: 5 + completion },
    });
    const deltas = await deltasOf([
      withUsage(chunk({ role: 'assistant', content: 'one' }), 1),
      withUsage(chunk({ content: ' two' }), 2),
      withUsage({ ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: 'stop', stop_reason: 'END' }] }, 2),
    ]);
    assert.deepEqual(deltas.slice(2), [
      { type: 'finish', choice: 0, reason: 'stop_sequence', stopSequence: 'END' },
      { type: 'usage', inputTokens: 5, outputTokens: 2 },
    ]);
  });

  test('tool-call fragments without an index (some compatible servers) start a call at each new id', async () => {
    const deltas = await deltasOf([
      chunk({ tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ id: 'b', function: { name: 'g', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const answer = await collectChat(eventsOfDeltas(deltas));
    assert.deepEqual(answer.choices[0]!.toolCalls, [
      { id: 'a', name: 'f', arguments: '{"x":1}' },
      { id: 'b', name: 'g', arguments: '{}' },
    ]);
  });

  test('choices of n > 1 keep their index; a refusal streams as text', async () => {
    const deltas = await deltasOf([
      chunk({ content: 'A' }, null, 0),
      chunk({ refusal: 'No.' }, null, 1),
      chunk({}, 'stop', 1),
      chunk({}, 'length', 0),
    ]);
    assert.deepEqual(deltas, [
      { type: 'text', choice: 0, text: 'A' },
      { type: 'text', choice: 1, text: 'No.' },
      { type: 'finish', choice: 1, reason: 'stop' },
      { type: 'finish', choice: 0, reason: 'length' },
    ]);
  });

  test('an error event ends the stream with its error after the deltas before it, its status read from its type or code', async () => {
    const seen: ChatDelta[] = [];
    const openaiError = {
      error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error' },
    };
    await assert.rejects(
      (async () => {
        for await (const delta of codec.deltas(eventsOf([chunk({ content: 'The' }), openaiError]))) seen.push(delta);
      })(),
      (error: unknown) => error instanceof GatewayError && error.status === 500 && /Sorry about that/.test(error.message),
    );
    assert.deepEqual(seen, [{ type: 'text', choice: 0, text: 'The' }]);
    await assert.rejects(
      deltasOf([{ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' } }]),
      (error: unknown) => {
        return error instanceof GatewayError && error.kind === 'rate_limited' && error.status === 429;
      },
    );
    await assert.rejects(
      deltasOf([{ object: 'error', error: { message: 'busy', type: 'BadRequestError', code: 503 } }]),
      (error: unknown) => {
        return error instanceof GatewayError && error.status === 503;
      },
    );
    const openrouter = { ...chunk({ content: '' }, 'error'), error: { code: 502, message: 'Provider disconnected' } };
    await assert.rejects(deltasOf([openrouter]), (error: unknown) => error instanceof GatewayError && error.status === 502);
    await assert.rejects(
      deltasOf([{ error: 'something broke' }]),
      (error: unknown) => error instanceof GatewayError && error.kind === 'upstream_failed',
    );
  });

  test('a choice index out of range is an upstream failure', async () => {
    await assert.rejects(
      deltasOf([chunk({ content: 'x' }, null, 100000)]),
      (error: unknown) => error instanceof GatewayError && error.kind === 'upstream_failed',
    );
  });
});

async function* eventsOfDeltas(deltas: ChatDelta[]): AsyncGenerator<ChatDelta> {
  yield* deltas;
}

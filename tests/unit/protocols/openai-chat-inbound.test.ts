// Unit tests of the OpenAI chat client side for translation: what a chat body keeps (images, reasoning_content, top_p, parallel tool calls, effort) and how reasoning, finish reasons and usage details are rendered.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import type { ChatResult } from '../../../electron/gateway/protocols/neutral/chat.ts';
import type { ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';
import { openaiChatCodec } from '../../../electron/gateway/protocols/openai/inbound/chat-codec.ts';

const meta = { id: 'chatcmpl-1', created: 1700000000, model: 'my-model' };
const parse = (body: Record<string, unknown>) => openaiChatCodec.parse({ model: 'm', ...body }).chat;
const refusal = (param: string) => (error: unknown) =>
  error instanceof GatewayError && error.kind === 'invalid_request' && error.param === param;

async function* streamOf(deltas: ChatDelta[]): AsyncGenerator<ChatDelta> {
  yield* deltas;
}

describe('parse', () => {
  test('a user turn keeps its images (URL and base64 data URL) in order beside its text', () => {
    const chat = parse({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image?' },
            { type: 'image_url', image_url: { url: 'https://upload.wikimedia.org/a.jpg', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } },
          ],
        },
      ],
    });
    assert.deepEqual(chat.turns, [
      {
        role: 'user',
        text: 'What is in this image?',
        parts: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image', url: 'https://upload.wikimedia.org/a.jpg' },
          { type: 'image', data: '/9j/4AAQ', mediaType: 'image/jpeg' },
        ],
      },
    ]);
    assert.deepEqual(parse({ messages: [{ role: 'user', content: [{ type: 'text', text: 'only text' }] }] }).turns, [
      { role: 'user', text: 'only text' },
    ]);
  });

  test('an image part without a URL, or a data: URL that is not base64, is a 400 naming it', () => {
    const user = (part: unknown) => ({ messages: [{ role: 'user', content: [part] }] });
    assert.throws(() => parse(user({ type: 'image_url', image_url: {} })), refusal('messages[0].content[0].image_url.url'));
    assert.throws(() => parse(user({ type: 'image_url' })), refusal('messages[0].content[0].image_url'));
    assert.throws(
      () => parse(user({ type: 'image_url', image_url: { url: 'data:text/plain,hello' } })),
      refusal('messages[0].content[0].image_url.url'),
    );
  });

  test("an assistant's reasoning_content (or OpenRouter's reasoning) is kept as its reasoning", () => {
    const chat = parse({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello.', reasoning_content: 'Greet back.' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          reasoning: 'Use the tool.',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'sunny' }] },
      ],
    });
    assert.deepEqual(chat.turns[1], { role: 'assistant', text: 'Hello.', reasoning: [{ text: 'Greet back.' }] });
    assert.deepEqual((chat.turns[3] as { reasoning?: unknown }).reasoning, [{ text: 'Use the tool.' }]);
    assert.deepEqual(chat.turns[4], { role: 'tool', toolCallId: 'c', name: 'f', text: 'sunny' });
  });

  test('top_p, parallel_tool_calls and reasoning_effort are kept; efforts without a neutral name read as the nearest', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
    const chat = parse({
      messages: [{ role: 'user', content: 'x' }],
      top_p: 0.5,
      parallel_tool_calls: false,
      tools,
      reasoning_effort: 'high',
    });
    assert.equal(chat.topP, 0.5);
    assert.equal(chat.parallelToolCalls, false);
    assert.deepEqual(chat.reasoning, { effort: 'high' });
    const effort = (reasoning_effort: string) => parse({ messages: [{ role: 'user', content: 'x' }], reasoning_effort }).reasoning?.effort;
    assert.equal(effort('minimal'), 'minimal');
    assert.equal(effort('none'), 'minimal');
    assert.equal(effort('xhigh'), 'high');
    assert.throws(() => effort('extreme'), refusal('reasoning_effort'));
    assert.throws(() => parse({ messages: [{ role: 'user', content: 'x' }], top_p: 1.5 }), refusal('top_p'));
    assert.throws(() => parse({ messages: [{ role: 'user', content: 'x' }], parallel_tool_calls: 'no' }), refusal('parallel_tool_calls'));
  });
});

describe('render', () => {
  const call = openaiChatCodec.parse({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
  const result: ChatResult = {
    choices: [
      {
        text: '9.8',
        toolCalls: [],
        finishReason: 'content_filter',
        reasoning: [{ text: 'Compare.', signature: 'sig' }, { text: 'Done.' }],
      },
    ],
    usage: { inputTokens: 20, outputTokens: 40, cachedInputTokens: 12, reasoningTokens: 30 },
  };

  test('reasoning becomes reasoning_content, with content_filter and the usage details', () => {
    const answer = openaiChatCodec.render(result, call, meta) as any;
    assert.equal(answer.choices[0].message.reasoning_content, 'Compare.\n\nDone.');
    assert.equal(answer.choices[0].message.content, '9.8');
    assert.equal(answer.choices[0].finish_reason, 'content_filter');
    assert.deepEqual(answer.usage.prompt_tokens_details, { cached_tokens: 12, audio_tokens: 0 });
    assert.equal(answer.usage.completion_tokens_details.reasoning_tokens, 30);
    const plain = openaiChatCodec.render({ ...result, choices: [{ text: 'x', toolCalls: [], finishReason: 'stop' }] }, call, meta) as any;
    assert.ok(!('reasoning_content' in plain.choices[0].message), 'no reasoning, no field');
  });

  test('streamed reasoning comes as reasoning_content deltas before the content, parts set apart', async () => {
    const streaming = openaiChatCodec.parse({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const events = [];
    for await (const event of openaiChatCodec.stream(
      streamOf([
        { type: 'reasoning', choice: 0, part: 0, text: 'Compare' },
        { type: 'reasoning', choice: 0, part: 0, text: '.' },
        { type: 'reasoning', choice: 0, part: 0, text: '', signature: 'sig' },
        { type: 'reasoning', choice: 0, part: 1, text: 'Done.' },
        { type: 'text', choice: 0, text: '9.8' },
        { type: 'finish', choice: 0, reason: 'stop' },
        { type: 'usage', inputTokens: 1, outputTokens: 2 },
      ]),
      streaming,
      meta,
    )) {
      events.push(event);
    }
    const deltas = events.flatMap((event) =>
      typeof event === 'symbol' || !('data' in event) ? [] : (event.data as any).choices.map((choice: any) => choice.delta),
    );
    assert.deepEqual(deltas, [
      { role: 'assistant', content: '', refusal: null },
      { reasoning_content: 'Compare' },
      { reasoning_content: '.' },
      { reasoning_content: '\n\nDone.' },
      { content: '9.8' },
      {},
    ]);
  });
});

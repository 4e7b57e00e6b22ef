// Integration tests of translation into OpenAI chat completions: Anthropic, Gemini and Responses clients (official SDKs) against a front whose one channel speaks chat completions to a simulating upstream.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, FunctionCallingConfigMode } from '@google/genai';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { journalEntries, settle } from '../helpers/relay.ts';
import { startTranslationRig, type TranslationRig } from '../helpers/translation.ts';

const ECHO = 'Grüße aus Köln, 世界 — three words: alpha beta gamma.';
const CITY_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city', 'days'],
};
const LONG = 'a very long story about the sea and its tides, the wind and its waves, the moon and its pull on the water';

/** Arguments as the tool's schema asks: a string city and an integer number of days within bounds. */
function assertValidArgs(args: unknown): void {
  const value = args as { city?: unknown; days?: unknown };
  assert.equal(typeof value.city, 'string', JSON.stringify(args));
  assert.ok(Number.isInteger(value.days) && (value.days as number) >= 1 && (value.days as number) <= 7, JSON.stringify(args));
}

describe('translation into OpenAI chat completions', () => {
  let rig: TranslationRig;
  before(async () => {
    rig = await startTranslationRig('openai-chat');
  });
  after(() => rig.stop());
  beforeEach(() => rig.speak('openai-chat'));

  /** The newest chat completions body the upstream received that mentions `text`. */
  const sentWith = async (text: string): Promise<any> => {
    await settle();
    const entries = await journalEntries(rig.up, { path: '/v1/chat/completions' });
    const body = entries.map((entry) => entry.request.text as string).find((body) => body.includes(JSON.stringify(text).slice(1, -1)));
    assert.ok(body, `the upstream received a body with ${text}`);
    return JSON.parse(body);
  };

  /**
   * Proves the first client event left before the upstream's paced stream ended: the client asks for a long echo of
   * `story`, leaves at its first event, and the upstream sees its stream cut.
   */
  const assertFirstEventBeforeUpstreamEnd = async (story: string, firstEventThenLeave: (story: string) => Promise<void>) => {
    rig.speak('openai-chat', { headers: { 'x-gatehouse-pace': '10' } });
    await firstEventThenLeave(story);
    let entry;
    for (let tries = 0; tries < 30 && !entry?.timing?.cut; tries++) {
      await settle();
      const entries = await journalEntries(rig.up, { path: '/v1/chat/completions' });
      entry = entries.find((candidate) => (candidate.request.text as string).includes(story));
    }
    assert.equal(entry?.timing?.cut, true, 'the upstream was still streaming when the client had its first event');
  };

  describe('Anthropic Messages client', () => {
    const tool = { name: 'get_weather', description: 'Weather of a city', input_schema: CITY_SCHEMA as Anthropic.Tool.InputSchema };

    test('echo content survives both ways, with the system prompt, the model name and usage', async () => {
      const answer = await rig.anthropic.messages.create({
        model: 'tr-echo',
        max_tokens: 200,
        system: 'You are terse.',
        messages: [{ role: 'user', content: ECHO }],
      });
      assert.equal(answer.content[0]?.type === 'text' && answer.content[0].text, ECHO);
      assert.equal(answer.model, 'tr-echo');
      assert.equal(answer.stop_reason, 'end_turn');
      assert.ok(answer.usage.input_tokens > 0 && answer.usage.output_tokens > 0);
      const sent = await sentWith(ECHO);
      assert.equal(sent.model, 'sim-echo');
      assert.deepEqual(sent.messages, [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: ECHO },
      ]);
      assert.equal(sent.max_completion_tokens, 200);
    });

    test('a stream is translated event by event and ends with message_stop and usage', async () => {
      const stream = await rig.anthropic.messages.create({
        model: 'tr-echo',
        max_tokens: 200,
        stream: true,
        messages: [{ role: 'user', content: ECHO }],
      });
      const types: string[] = [];
      let text = '';
      let outputTokens = 0;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
        if (event.type === 'message_delta') outputTokens = event.usage.output_tokens;
      }
      assert.equal(text, ECHO);
      assert.equal(types[0], 'message_start');
      assert.equal(types.at(-1), 'message_stop');
      assert.ok(outputTokens > 0);
      const sent = await sentWith(ECHO);
      assert.equal(sent.stream, true);
      assert.deepEqual(sent.stream_options, { include_usage: true });
    });

    test('a required tool comes back as tool_use with valid input, and the tool loop ends in text', async () => {
      const question = { role: 'user' as const, content: 'What is the weather in Rome?' };
      const first = await rig.anthropic.messages.create({
        model: 'tr-chat',
        max_tokens: 300,
        tools: [tool],
        tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [question],
      });
      assert.equal(first.stop_reason, 'tool_use');
      const use = first.content.find((block) => block.type === 'tool_use');
      assert.ok(use && use.type === 'tool_use');
      assert.equal(use.name, 'get_weather');
      assertValidArgs(use.input);
      const second = await rig.anthropic.messages.create({
        model: 'tr-chat',
        max_tokens: 300,
        tools: [tool],
        messages: [
          question,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny, 24 degrees' }] },
        ],
      });
      assert.equal(second.stop_reason, 'end_turn');
      assert.ok(second.content.every((block) => block.type === 'text'));
      const sent = await sentWith('sunny, 24 degrees');
      assert.equal(sent.messages[1].tool_calls[0].id, use.id, 'the call id ties the result to its call');
      assert.deepEqual(sent.messages[2], { role: 'tool', tool_call_id: use.id, content: 'sunny, 24 degrees' });
    });

    test('a streamed tool call arrives as input_json_delta pieces that join into valid input', async () => {
      const stream = rig.anthropic.messages.stream({
        model: 'tr-chat',
        max_tokens: 300,
        tools: [tool],
        tool_choice: { type: 'any' },
        messages: [{ role: 'user', content: 'Weather in Oslo please' }],
      });
      let pieces = 0;
      stream.on('inputJson', () => pieces++);
      const message = await stream.finalMessage();
      const use = message.content.find((block) => block.type === 'tool_use');
      assert.ok(use && use.type === 'tool_use');
      assertValidArgs(use.input);
      assert.ok(pieces > 1, 'the arguments came in pieces');
      assert.equal(message.stop_reason, 'tool_use');
      assert.ok(message.usage.output_tokens > 0);
    });

    test('an upstream 429 is a RateLimitError', async () => {
      rig.speak('openai-chat', { headers: { 'x-gatehouse-fault': '429' } });
      await assert.rejects(
        rig.anthropic.messages.create({ model: 'tr-chat', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
        Anthropic.RateLimitError,
      );
    });

    test('the first event leaves before the upstream stream ended', async () => {
      await assertFirstEventBeforeUpstreamEnd(`${LONG} (anthropic)`, async (story) => {
        const controller = new AbortController();
        const stream = await rig.anthropic.messages.create(
          { model: 'tr-echo', max_tokens: 500, stream: true, messages: [{ role: 'user', content: story }] },
          { signal: controller.signal },
        );
        try {
          for await (const _event of stream) controller.abort();
        } catch {
          // The SDK may report the abort as an error.
        }
      });
    });
  });

  describe('Gemini client', () => {
    const tools = [
      { functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parametersJsonSchema: CITY_SCHEMA }] },
    ];

    test('echo content survives both ways, with the system instruction and usage', async () => {
      const answer = await rig.gemini.models.generateContent({
        model: 'tr-echo',
        contents: ECHO,
        config: { systemInstruction: 'You are terse.', maxOutputTokens: 100, stopSequences: ['NEVER'], temperature: 0.5 },
      });
      assert.equal(answer.text, ECHO);
      assert.equal(answer.candidates?.[0]?.finishReason, 'STOP');
      assert.ok(answer.usageMetadata!.promptTokenCount! > 0 && answer.usageMetadata!.candidatesTokenCount! > 0);
      const sent = await sentWith(ECHO);
      assert.equal(sent.messages[0].content, 'You are terse.');
      assert.deepEqual(sent.stop, ['NEVER']);
      assert.equal(sent.max_completion_tokens, 100);
      assert.equal(sent.temperature, 0.5);
    });

    test('a stream ends with usage metadata', async () => {
      let text = '';
      let usage;
      for await (const chunk of await rig.gemini.models.generateContentStream({ model: 'tr-echo', contents: ECHO })) {
        text += chunk.text ?? '';
        usage = chunk.usageMetadata ?? usage;
      }
      assert.equal(text, ECHO);
      assert.ok(usage?.candidatesTokenCount && usage.candidatesTokenCount > 0);
    });

    test('mode ANY gives a functionCall with valid args, and the functionResponse loop ends in text', async () => {
      const question = { role: 'user', parts: [{ text: 'What is the weather in Rome?' }] };
      const first = await rig.gemini.models.generateContent({
        model: 'tr-chat',
        contents: [question],
        config: { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
      });
      const call = first.functionCalls?.[0];
      assert.ok(call);
      assert.equal(call.name, 'get_weather');
      assertValidArgs(call.args);
      const second = await rig.gemini.models.generateContent({
        model: 'tr-chat',
        contents: [
          question,
          first.candidates![0]!.content!,
          { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name!, response: { temp: 24 } } }] },
        ],
        config: { tools },
      });
      assert.equal(second.functionCalls, undefined);
      assert.match(second.text ?? '', /\w/);
    });

    test('a streamed functionCall has valid args', async () => {
      const calls = [];
      for await (const chunk of await rig.gemini.models.generateContentStream({
        model: 'tr-chat',
        contents: 'Weather in Oslo please',
        config: { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
      })) {
        calls.push(...(chunk.functionCalls ?? []));
      }
      assert.equal(calls.length, 1);
      assertValidArgs(calls[0]!.args);
    });

    test('an upstream 429 is an ApiError with status 429 (RESOURCE_EXHAUSTED)', async () => {
      rig.speak('openai-chat', { headers: { 'x-gatehouse-fault': '429' } });
      await assert.rejects(
        rig.gemini.models.generateContent({ model: 'tr-chat', contents: 'hi' }),
        (error: unknown) => error instanceof ApiError && error.status === 429 && /RESOURCE_EXHAUSTED/.test(error.message),
      );
    });

    test('the first event leaves before the upstream stream ended', async () => {
      await assertFirstEventBeforeUpstreamEnd(`${LONG} (gemini)`, async (story) => {
        const controller = new AbortController();
        const stream = await rig.gemini.models.generateContentStream({
          model: 'tr-echo',
          contents: story,
          config: { abortSignal: controller.signal },
        });
        try {
          for await (const _chunk of stream) controller.abort();
        } catch {
          // The SDK may report the abort as an error.
        }
      });
    });
  });

  describe('Responses client', () => {
    const tool = {
      type: 'function' as const,
      name: 'get_weather',
      description: 'Weather of a city',
      strict: false,
      parameters: CITY_SCHEMA,
    };

    test('echo content survives both ways, with instructions and usage', async () => {
      const answer = await rig.openai.responses.create({ model: 'tr-echo', instructions: 'You are terse.', input: ECHO, store: false });
      assert.equal(answer.output_text, ECHO);
      assert.equal(answer.model, 'tr-echo');
      assert.equal(answer.status, 'completed');
      assert.ok(answer.usage!.input_tokens > 0 && answer.usage!.output_tokens > 0);
      const sent = await sentWith(ECHO);
      assert.deepEqual(sent.messages[0], { role: 'system', content: 'You are terse.' });
    });

    test('a stream ends with response.completed and usage', async () => {
      const stream = await rig.openai.responses.create({ model: 'tr-echo', input: ECHO, stream: true, store: false });
      let text = '';
      let last;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        last = event;
      }
      assert.equal(text, ECHO);
      assert.equal(last?.type, 'response.completed');
      assert.ok(last?.type === 'response.completed' && last.response.usage!.output_tokens > 0);
    });

    test('a named tool comes back as a function_call item with valid arguments, and the loop ends in a message', async () => {
      const first = await rig.openai.responses.create({
        model: 'tr-chat',
        input: 'What is the weather in Paris?',
        tools: [tool],
        tool_choice: { type: 'function', name: 'get_weather' },
        store: false,
      });
      const call = first.output.find((item) => item.type === 'function_call');
      assert.ok(call && call.type === 'function_call');
      assertValidArgs(JSON.parse(call.arguments));
      const second = await rig.openai.responses.create({
        model: 'tr-chat',
        tools: [tool],
        store: false,
        input: [
          { role: 'user', content: 'What is the weather in Paris?' },
          { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 18}' },
        ],
      });
      assert.equal(second.status, 'completed');
      assert.ok(second.output.every((item) => item.type === 'message'));
      assert.match(second.output_text, /\w/);
    });

    test('a streamed function call has arguments deltas that join into valid arguments', async () => {
      const stream = await rig.openai.responses.create({
        model: 'tr-chat',
        input: 'Weather in Oslo please',
        tools: [tool],
        tool_choice: 'required',
        stream: true,
        store: false,
      });
      let joined = '';
      let done;
      for await (const event of stream) {
        if (event.type === 'response.function_call_arguments.delta') joined += event.delta;
        if (event.type === 'response.function_call_arguments.done') done = event.arguments;
      }
      assert.equal(joined, done);
      assertValidArgs(JSON.parse(joined));
    });

    test('an upstream 429 is a RateLimitError', async () => {
      rig.speak('openai-chat', { headers: { 'x-gatehouse-fault': '429' } });
      await assert.rejects(rig.openai.responses.create({ model: 'tr-chat', input: 'hi', store: false }), OpenAI.RateLimitError);
    });

    test('the first event leaves before the upstream stream ended', async () => {
      await assertFirstEventBeforeUpstreamEnd(`${LONG} (responses)`, async (story) => {
        const controller = new AbortController();
        const stream = await rig.openai.responses.create(
          { model: 'tr-echo', input: story, stream: true, store: false },
          { signal: controller.signal },
        );
        try {
          for await (const _event of stream) controller.abort();
        } catch {
          // The SDK may report the abort as an error.
        }
      });
    });
  });
});

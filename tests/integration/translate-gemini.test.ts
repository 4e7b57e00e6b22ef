// Translation into Gemini generateContent: OpenAI chat, Responses and Anthropic clients (the official SDKs) reach a model only a gemini channel serves, whose upstream is a second Gatehouse (and, for thought signatures, a recording stand-in).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { validateAgainstSchema } from '../helpers/json-schema-check.ts';
import { journalEntries, settle } from '../helpers/relay.ts';
import { startTranslationRig, type TranslationRig } from '../helpers/translation.ts';

const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city'],
};

describe('translation into Gemini generateContent', () => {
  let rig: TranslationRig;
  before(async () => {
    rig = await startTranslationRig('gemini');
  });
  after(async () => rig.stop());
  beforeEach(() => rig.speak('gemini'));

  /** The last generateContent body the upstream received (streamed or not). */
  const lastUpstreamBody = async () => {
    await settle();
    const [entry] = await journalEntries(rig.up, { prefix: '/v1beta/models' });
    return JSON.parse(entry.request.text);
  };

  test('an OpenAI chat call goes up as contents with a systemInstruction and generationConfig, and comes back in chat shape', async () => {
    const answer = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'echo into gemini' },
      ],
      temperature: 0.4,
      max_tokens: 50,
      stop: ['NEVER'],
    });
    assert.equal(answer.choices[0]!.message.content, 'echo into gemini');
    assert.equal(answer.model, 'tr-echo');
    assert.ok(answer.usage!.prompt_tokens > 0 && answer.usage!.completion_tokens > 0);
    const sent = await lastUpstreamBody();
    assert.deepEqual(sent.systemInstruction, { parts: [{ text: 'Answer briefly.' }] });
    assert.deepEqual(sent.contents, [{ role: 'user', parts: [{ text: 'echo into gemini' }] }]);
    assert.deepEqual(sent.generationConfig, { maxOutputTokens: 50, stopSequences: ['NEVER'], temperature: 0.4 });
  });

  test('an OpenAI chat stream comes through chunk by chunk with usage at the end', async () => {
    const stream = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'gemini streams several words' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'gemini streams several words');
    assert.ok(chunks > 1);
    assert.ok(usage && usage.completion_tokens > 0);
  });

  test('an OpenAI tool loop: function call with valid arguments, a functionResponse with the name, an answer quoting it', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }];
    const first = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      tools,
      tool_choice: 'required',
      messages: [{ role: 'user', content: 'What is the weather in Lima?' }],
    });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
    assert.deepEqual(validateAgainstSchema(JSON.parse(call.function.arguments), WEATHER), []);
    const second = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      tools,
      messages: [
        { role: 'user', content: 'What is the weather in Lima?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'cloudy, 18 degrees' },
      ],
    });
    assert.match(second.choices[0]!.message.content ?? '', /cloudy, 18 degrees/);
    const sent = await lastUpstreamBody();
    assert.deepEqual(
      sent.contents.map((content: { role: string }) => content.role),
      ['user', 'model', 'user'],
    );
    assert.deepEqual(sent.contents[2].parts[0], { functionResponse: { name: 'get_weather', response: { result: 'cloudy, 18 degrees' } } });
    assert.deepEqual(sent.toolConfig, { functionCallingConfig: { mode: 'AUTO' } }, "the OpenAI default tool_choice 'auto'");
  });

  test('an Anthropic client: text, a stream with usage, and a tool loop', async () => {
    const answer = await rig.anthropic.messages.create({
      model: 'tr-echo',
      max_tokens: 64,
      system: 'Be exact.',
      messages: [{ role: 'user', content: 'anthropic into gemini' }],
    });
    assert.equal(answer.content[0]!.type === 'text' && answer.content[0]!.text, 'anthropic into gemini');
    assert.equal((await lastUpstreamBody()).systemInstruction.parts[0].text, 'Be exact.');
    const stream = rig.anthropic.messages.stream({
      model: 'tr-echo',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'streamed to claude code' }],
    });
    const final = await stream.finalMessage();
    assert.equal(final.content[0]!.type === 'text' && final.content[0]!.text, 'streamed to claude code');
    assert.ok(final.usage.output_tokens > 0);
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: WEATHER as Anthropic.Tool.InputSchema }];
    const first = await rig.anthropic.messages.create({
      model: 'tr-chat',
      max_tokens: 64,
      tools,
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'weather in Cairo?' }],
    });
    const use = first.content.find((block) => block.type === 'tool_use')!;
    assert.equal(first.stop_reason, 'tool_use');
    assert.deepEqual(validateAgainstSchema(use.input, WEATHER), []);
    const second = await rig.anthropic.messages.create({
      model: 'tr-chat',
      max_tokens: 64,
      tools,
      messages: [
        { role: 'user', content: 'weather in Cairo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'hot, 35 degrees' }] },
      ],
    });
    assert.match(second.content[0]!.type === 'text' ? second.content[0]!.text : '', /hot, 35 degrees/);
  });

  test('a Responses client: text, a completed stream with usage, a tool loop', async () => {
    const answer = await rig.openai.responses.create({ model: 'tr-echo', input: 'responses into gemini' });
    assert.equal(answer.output_text, 'responses into gemini');
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of await rig.openai.responses.create({ model: 'tr-echo', input: 'streamed into gemini', stream: true })) {
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.ok(completed && completed.usage!.output_tokens > 0);
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters: WEATHER, strict: false }];
    const first = await rig.openai.responses.create({ model: 'tr-chat', input: 'weather in Kyiv?', tools, tool_choice: 'required' });
    const call = first.output.find((item) => item.type === 'function_call')!;
    const second = await rig.openai.responses.create({
      model: 'tr-chat',
      tools,
      input: [
        { role: 'user', content: 'weather in Kyiv?' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'windy, 9 degrees' },
      ],
    });
    assert.match(second.output_text, /windy, 9 degrees/);
  });

  test("an upstream 429 reaches each client as its SDK's rate-limit error", async () => {
    // The fault is the upstream's: the channel's extra header asks it of the upstream gateway.
    rig.speak('gemini', { headers: { 'x-gatehouse-fault': '429' } });
    await assert.rejects(
      rig.openai.chat.completions.create({ model: 'tr-chat', messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof OpenAI.RateLimitError,
    );
    await assert.rejects(
      rig.anthropic.messages.create({ model: 'tr-chat', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof Anthropic.RateLimitError,
    );
  });
});

describe('Gemini thought signatures survive a tool loop through another protocol', () => {
  let fake: Server;
  let rig: TranslationRig;
  const bodies: any[] = [];
  before(async () => {
    // A stand-in Gemini that thinks: its function call carries a thought signature, as Gemini 2.5+/3 models send.
    fake = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        bodies.push(JSON.parse(text));
        const first = bodies.length === 1;
        const parts = first
          ? [
              { text: 'Thinking about the weather.', thought: true },
              { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'CvcBAY89a1/sig+with/base64==' },
            ]
          : [{ text: 'It is snowing in Oslo.', thoughtSignature: 'Second+sig==' }];
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
            usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 8, thoughtsTokenCount: 12, totalTokenCount: 40 },
            modelVersion: 'gemini-thinker',
            responseId: 'resp1',
          }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    rig = await startTranslationRig('gemini');
    rig.speak('gemini', { baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}`, models: ['thinker=gemini-thinker'] });
  });
  after(async () => {
    await rig.stop();
    fake.close();
  });

  test('an Anthropic client gets the thought and the call, sends them back, and Gemini receives its signature on the functionCall part', async () => {
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: WEATHER as Anthropic.Tool.InputSchema }];
    const first = await rig.anthropic.messages.create({
      model: 'thinker',
      max_tokens: 256,
      tools,
      messages: [{ role: 'user', content: 'weather in Oslo?' }],
    });
    assert.equal(first.content[0]!.type, 'thinking');
    assert.equal(first.content[0]!.type === 'thinking' && first.content[0]!.thinking, 'Thinking about the weather.');
    assert.equal(first.usage.output_tokens, 20, 'thoughts count as output');
    const use = first.content.find((block) => block.type === 'tool_use')!;
    assert.deepEqual(use.input, { city: 'Oslo' });
    const second = await rig.anthropic.messages.create({
      model: 'thinker',
      max_tokens: 256,
      tools,
      messages: [
        { role: 'user', content: 'weather in Oslo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'snow' }] },
      ],
    });
    assert.equal(second.content.find((block) => block.type === 'text')?.text, 'It is snowing in Oslo.');
    const model = bodies[1].contents[1];
    assert.equal(model.role, 'model');
    assert.deepEqual(model.parts, [
      { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'CvcBAY89a1/sig+with/base64==' },
    ]);
    assert.deepEqual(bodies[1].contents[2].parts, [{ functionResponse: { name: 'get_weather', response: { result: 'snow' } } }]);
  });
});

// Translation into Anthropic Messages: OpenAI chat, Responses and Gemini clients (the official SDKs) reach a model only an anthropic channel serves, whose upstream is a second Gatehouse.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { validateAgainstSchema } from '../helpers/json-schema-check.ts';
import { lastUpstreamBody, startTranslationRig, WEATHER, type TranslationRig } from '../helpers/translation.ts';

describe('translation into Anthropic Messages', () => {
  let rig: TranslationRig;
  before(async () => {
    rig = await startTranslationRig('anthropic');
  });
  after(async () => rig.stop());
  beforeEach(() => rig.speak('anthropic'));

  const lastBody = () => lastUpstreamBody(rig.up, { path: '/v1/messages' });

  test('an OpenAI chat call is sent as a Messages call (system on top, max_tokens default) and answered in chat shape', async () => {
    const answer = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'echo across protocols' },
      ],
      temperature: 0.5,
      stop: ['NEVER'],
    });
    assert.equal(answer.choices[0]!.message.content, 'echo across protocols');
    assert.equal(answer.choices[0]!.finish_reason, 'stop');
    assert.equal(answer.model, 'tr-echo');
    assert.ok(answer.usage!.prompt_tokens > 0 && answer.usage!.completion_tokens > 0);
    const sent = await lastBody();
    assert.equal(sent.model, 'sim-echo');
    assert.equal(sent.system, 'Answer briefly.');
    assert.equal(sent.max_tokens, 4096);
    assert.deepEqual(sent.stop_sequences, ['NEVER']);
    assert.deepEqual(sent.messages, [{ role: 'user', content: [{ type: 'text', text: 'echo across protocols' }] }]);
  });

  test('an OpenAI chat stream arrives chunk by chunk and ends with usage', async () => {
    const stream = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'several words stream through' }],
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'several words stream through');
    assert.equal(finish, 'stop');
    assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0, 'usage at the end of the translated stream');
  });

  test('the first streamed chunk leaves before the paced upstream stream has ended', async () => {
    rig.speak('anthropic', { headers: { 'x-gatehouse-pace': '8' } });
    const stream = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      stream: true,
      messages: [{ role: 'user', content: 'one two three four five six seven eight' }],
    });
    const arrivals: number[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) arrivals.push(Date.now());
    assert.ok(arrivals.length >= 8, `${arrivals.length} text chunks`);
    // At 8 tokens a second the upstream needs about a second for these words; a buffering translator would deliver them at once.
    assert.ok(arrivals.at(-1)! - arrivals[0]! >= 400, `first to last chunk: ${arrivals.at(-1)! - arrivals[0]!} ms`);
  });

  test('an OpenAI tool loop: the call comes back with valid arguments, the result goes up as a tool_result, the answer quotes it', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }];
    const first = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      tools,
      tool_choice: 'required',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(validateAgainstSchema(JSON.parse(call.function.arguments), WEATHER), []);
    const second = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      tools,
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'sunny, 21 degrees' },
      ],
    });
    assert.match(second.choices[0]!.message.content ?? '', /sunny, 21 degrees/);
    const sent = await lastBody();
    assert.deepEqual(
      sent.messages.map((message: { role: string }) => message.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(sent.messages[2].content[0].type, 'tool_result');
    assert.equal(sent.messages[2].content[0].tool_use_id, sent.messages[1].content[0].id);
  });

  test('an OpenAI tool call streams its arguments in fragments that join to valid JSON', async () => {
    const stream = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      stream: true,
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      messages: [{ role: 'user', content: 'weather?' }],
    });
    let args = '';
    let name = '';
    let fragments = 0;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name ||= call.function?.name ?? '';
        if (call.function?.arguments) {
          args += call.function.arguments;
          fragments += 1;
        }
      }
    }
    assert.equal(name, 'get_weather');
    assert.ok(fragments > 1, 'arguments arrive in pieces');
    assert.deepEqual(validateAgainstSchema(JSON.parse(args), WEATHER), []);
  });

  test('a Gemini client: text both ways, a stream, and a function call loop', async () => {
    const answer = await rig.gemini.models.generateContent({ model: 'tr-echo', contents: 'gemini over anthropic' });
    assert.equal(answer.text, 'gemini over anthropic');
    assert.ok(answer.usageMetadata!.promptTokenCount! > 0);
    let streamed = '';
    for await (const chunk of await rig.gemini.models.generateContentStream({ model: 'tr-echo', contents: 'streamed gemini words' })) {
      streamed += chunk.text ?? '';
    }
    assert.equal(streamed, 'streamed gemini words');
    const declaration = { name: 'get_weather', parametersJsonSchema: WEATHER };
    const config = { tools: [{ functionDeclarations: [declaration] }], toolConfig: { functionCallingConfig: { mode: 'ANY' as never } } };
    const first = await rig.gemini.models.generateContent({ model: 'tr-chat', contents: 'weather in Rome?', config });
    const call = first.functionCalls![0]!;
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(validateAgainstSchema(call.args, WEATHER), []);
    const second = await rig.gemini.models.generateContent({
      model: 'tr-chat',
      config: { tools: config.tools },
      contents: [
        { role: 'user', parts: [{ text: 'weather in Rome?' }] },
        first.candidates![0]!.content!,
        { role: 'user', parts: [{ functionResponse: { id: call.id, name: 'get_weather', response: { output: 'rainy, 14 degrees' } } }] },
      ],
    });
    assert.match(second.text ?? '', /rainy, 14 degrees/);
  });

  test('a Responses client: text, a stream that completes with usage, and a function call loop', async () => {
    const answer = await rig.openai.responses.create({ model: 'tr-echo', input: 'responses over anthropic', instructions: 'Be exact.' });
    assert.equal(answer.output_text, 'responses over anthropic');
    assert.equal((await lastBody()).system, 'Be exact.');
    const events: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of await rig.openai.responses.create({ model: 'tr-echo', input: 'streamed responses', stream: true })) {
      events.push(event.type);
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.equal(events[0], 'response.created');
    assert.ok(events.includes('response.output_text.delta'));
    const message = completed!.output.find((item) => item.type === 'message');
    assert.deepEqual(
      message?.content.map((part) => (part.type === 'output_text' ? part.text : '')),
      ['streamed responses'],
    );
    assert.ok(completed!.usage!.input_tokens > 0 && completed!.usage!.output_tokens > 0);
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters: WEATHER, strict: false }];
    const first = await rig.openai.responses.create({ model: 'tr-chat', input: 'weather in Oslo?', tools, tool_choice: 'required' });
    const call = first.output.find((item) => item.type === 'function_call')!;
    assert.deepEqual(validateAgainstSchema(JSON.parse(call.arguments), WEATHER), []);
    const second = await rig.openai.responses.create({
      model: 'tr-chat',
      tools,
      input: [
        { role: 'user', content: 'weather in Oslo?' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'snow, -3 degrees' },
      ],
    });
    assert.match(second.output_text, /snow, -3 degrees/);
  });

  test("an upstream 429 reaches each client as its SDK's rate-limit error, status kept", async () => {
    // The fault is the upstream's: the channel's extra header asks it of the upstream gateway.
    rig.speak('anthropic', { headers: { 'x-gatehouse-fault': '429' } });
    await assert.rejects(
      rig.openai.chat.completions.create({ model: 'tr-chat', messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof OpenAI.RateLimitError,
    );
    await assert.rejects(
      rig.openai.responses.create({ model: 'tr-chat', input: 'x' }),
      (error: unknown) => error instanceof OpenAI.RateLimitError,
    );
    await assert.rejects(rig.gemini.models.generateContent({ model: 'tr-chat', contents: 'x' }), (error: unknown) => {
      assert.equal((error as { status?: number }).status, 429);
      assert.match(String(error), /RESOURCE_EXHAUSTED/);
      return true;
    });
  });

  test("an upstream stream cut mid-way ends the client's stream with its protocol's error event", async () => {
    // The upstream gateway cuts its stream after three events.
    rig.speak('anthropic', { headers: { 'x-gatehouse-fault': 'disconnect' } });
    const stream = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      stream: true,
      messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
    });
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
      (error: unknown) => error instanceof OpenAI.APIError && /broke off/.test(error.message),
    );
    assert.ok(text.length < 'one two three four five six seven eight nine ten'.length, 'the answer was cut, not completed');
  });

  test('what Anthropic cannot take is refused clearly in the caller protocol: more than one choice', async () => {
    await assert.rejects(
      rig.openai.chat.completions.create({ model: 'tr-echo', n: 2, messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && /n: .*Anthropic/.test(error.message),
    );
  });
});

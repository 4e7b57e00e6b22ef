// Integration tests of fixtures in the chat protocols: one fixture answers a text and a tool call in OpenAI chat, Responses, Anthropic Messages and Gemini (streamed and not, through the official SDKs), an agent loop is scripted by turn and tool result, and the journal names the fixture.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

const FIXTURES = [
  { name: 'greeting', match: { endpoint: 'chat', user: 'hello there' }, response: { text: 'Hi from a fixture, in any protocol!' } },
  {
    name: 'weather-call',
    match: { user: { regex: 'weather in \\w+', flags: 'i' }, tools: ['get_weather'] },
    response: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  },
];

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('one fixture answers every chat protocol', () => {
  const dirs = tempDirs();
  let gw: TestGateway;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let gemini: GoogleGenAI;
  before(async () => {
    const dir = dirs.fresh();
    const file = path.join(dir, 'chat.json');
    writeFileSync(file, JSON.stringify(FIXTURES));
    gw = await startGateway({ fixtures: [file] });
    openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    gemini = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
  });
  after(async () => {
    await gw.stop();
    dirs.removeAll();
  });

  const TEXT = 'Hi from a fixture, in any protocol!';

  test('OpenAI chat completions: text and a tool call, whole and streamed', async () => {
    const whole = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there' }] });
    assert.equal(whole.choices[0]!.message.content, TEXT);
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    assert.equal(streamed, TEXT);

    const tools = [{ type: 'function' as const, function: WEATHER_TOOL }];
    const call = await openai.chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [{ role: 'user', content: 'What is the Weather in Paris?' }],
    });
    const toolCall = call.choices[0]!.message.tool_calls![0]! as { function: { name: string; arguments: string } };
    assert.equal(call.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(toolCall.function.name, 'get_weather');
    assert.deepEqual(JSON.parse(toolCall.function.arguments), { city: 'Paris' });
    const runner = openai.chat.completions.stream({ model: 'gpt-4o', tools, messages: [{ role: 'user', content: 'weather in Paris' }] });
    const final = await runner.finalChatCompletion();
    const streamedCall = final.choices[0]!.message.tool_calls![0]! as { function: { name: string; arguments: string } };
    assert.deepEqual(JSON.parse(streamedCall.function.arguments), { city: 'Paris' });
  });

  test('OpenAI Responses: text and a tool call, whole and streamed', async () => {
    const whole = await openai.responses.create({ model: 'gpt-4o', input: 'hello there' });
    assert.equal(whole.output_text, TEXT);
    const stream = await openai.responses.create({ model: 'gpt-4o', input: 'hello there', stream: true });
    let streamed = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') streamed += event.delta;
    assert.equal(streamed, TEXT);

    const tools = [{ type: 'function' as const, strict: false, ...WEATHER_TOOL }];
    const call = await openai.responses.create({ model: 'gpt-4o', tools, input: 'weather in Paris' });
    const item = call.output.find((entry) => entry.type === 'function_call');
    assert.ok(item && item.type === 'function_call');
    assert.equal(item.name, 'get_weather');
    assert.deepEqual(JSON.parse(item.arguments), { city: 'Paris' });
    const streamedCall = await openai.responses.stream({ model: 'gpt-4o', tools, input: 'weather in Paris' }).finalResponse();
    const streamedItem = streamedCall.output.find((entry) => entry.type === 'function_call');
    assert.ok(streamedItem && streamedItem.type === 'function_call');
    assert.deepEqual(JSON.parse(streamedItem.arguments), { city: 'Paris' });
  });

  test('Anthropic Messages: text and a tool call, whole and streamed', async () => {
    const whole = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    assert.deepEqual(
      whole.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      [TEXT],
    );
    const streamed = await anthropic.messages
      .stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hello there' }] })
      .finalText();
    assert.equal(streamed, TEXT);

    const tools = [
      {
        name: WEATHER_TOOL.name,
        description: WEATHER_TOOL.description,
        input_schema: WEATHER_TOOL.parameters as Anthropic.Tool.InputSchema,
      },
    ];
    const call = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'weather in Paris' }],
    });
    assert.equal(call.stop_reason, 'tool_use');
    const use = call.content.find((block) => block.type === 'tool_use');
    assert.ok(use && use.type === 'tool_use');
    assert.equal(use.name, 'get_weather');
    assert.deepEqual(use.input, { city: 'Paris' });
    const final = await anthropic.messages
      .stream({ model: 'claude-sonnet-4-5', max_tokens: 100, tools, messages: [{ role: 'user', content: 'weather in Paris' }] })
      .finalMessage();
    const streamedUse = final.content.find((block) => block.type === 'tool_use');
    assert.ok(streamedUse && streamedUse.type === 'tool_use');
    assert.deepEqual(streamedUse.input, { city: 'Paris' });
  });

  test('Gemini generateContent: text and a tool call, whole and streamed', async () => {
    const whole = await gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello there' });
    assert.equal(whole.text, TEXT);
    let streamed = '';
    for await (const chunk of await gemini.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hello there' }))
      streamed += chunk.text ?? '';
    assert.equal(streamed, TEXT);

    const config = {
      tools: [
        {
          functionDeclarations: [
            { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parametersJsonSchema: WEATHER_TOOL.parameters },
          ],
        },
      ],
    };
    const call = await gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: 'weather in Paris', config });
    assert.equal(call.functionCalls?.[0]?.name, 'get_weather');
    assert.deepEqual(call.functionCalls?.[0]?.args, { city: 'Paris' });
    const calls: unknown[] = [];
    for await (const chunk of await gemini.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'weather in Paris',
      config,
    })) {
      calls.push(...(chunk.functionCalls ?? []).map((fn) => ({ name: fn.name, args: fn.args })));
    }
    assert.deepEqual(calls, [{ name: 'get_weather', args: { city: 'Paris' } }]);
  });

  test('the journal names the fixture that answered, and the admin API counts its matches', async () => {
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there, journal' }] });
    const admin = (method: string, url: string) => request(`${gw.url}/admin/api${url}`, method, { token: gw.gateway.adminToken });
    const entries = (await admin('GET', '/journal?path=/v1/chat/completions')).body.items as { id: number }[];
    const entry = (await admin('GET', `/journal/${entries[0]!.id}`)).body;
    assert.equal(entry.fixture, 'greeting');
    const listed = (await admin('GET', '/fixtures')).body.fixtures as { label: string; matched: number; origin: string }[];
    const greeting = listed.find((fixture) => fixture.label === 'greeting')!;
    assert.equal(greeting.origin, 'file');
    assert.ok(greeting.matched >= 5, `matched ${greeting.matched}`);
  });
});

describe('an agent loop scripted by turn index and tool result', () => {
  let gw: TestGateway;
  let openai: OpenAI;
  before(async () => {
    gw = await startGateway();
    openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const added = await request(`${gw.url}/admin/api/fixtures`, 'POST', {
      token: gw.gateway.adminToken,
      body: [
        {
          name: 'ask-tool',
          match: { turn: 0, user: 'weather', tool_result: false },
          response: { text: 'Let me look.', tool_calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}', id: 'call_1' }] },
        },
        { name: 'answer', match: { turn: 1, tool_result: 'sunny' }, response: { text: 'It is sunny in Paris.' } },
      ],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });
  after(() => gw.stop());

  test('tool call, tool result, final answer', async () => {
    const tools = [{ type: 'function' as const, function: WEATHER_TOOL }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await openai.chat.completions.create({ model: 'gpt-4o', tools, messages });
    const asked = first.choices[0]!.message;
    assert.equal(asked.content, 'Let me look.');
    assert.equal(asked.tool_calls?.[0]?.id, 'call_1');
    messages.push(asked, { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny","celsius":21}' });
    const second = await openai.chat.completions.create({ model: 'gpt-4o', tools, messages });
    assert.equal(second.choices[0]!.message.content, 'It is sunny in Paris.');
    assert.equal(second.choices[0]!.finish_reason, 'stop');
  });
});

// Translation into the OpenAI Responses API (channels with --api responses): OpenAI chat, Anthropic and Gemini clients (the official SDKs) reach a Responses-only upstream (a second Gatehouse; for encrypted reasoning, a recording stand-in).
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

describe('translation into the OpenAI Responses API', () => {
  let rig: TranslationRig;
  before(async () => {
    rig = await startTranslationRig('openai-responses');
  });
  after(async () => rig.stop());
  beforeEach(() => rig.speak('openai-responses'));

  const lastUpstreamBody = async () => {
    await settle();
    const [entry] = await journalEntries(rig.up, { path: '/v1/responses' });
    return JSON.parse(entry.request.text);
  };

  test('an OpenAI chat call goes up as instructions and input items with store off, and comes back in chat shape', async () => {
    const answer = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'chat into responses' },
      ],
      max_tokens: 40,
    });
    assert.equal(answer.choices[0]!.message.content, 'chat into responses');
    assert.equal(answer.model, 'tr-echo');
    const sent = await lastUpstreamBody();
    assert.equal(sent.model, 'sim-echo');
    assert.equal(sent.store, false, 'the gateway keeps the conversation, not the upstream');
    assert.equal(sent.max_output_tokens, 40);
    assert.equal(sent.instructions, 'Answer briefly.');
    assert.deepEqual(sent.input, [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'chat into responses' }] }]);
  });

  test('an OpenAI chat stream, and a tool loop with function_call and function_call_output items', async () => {
    const stream = await rig.openai.chat.completions.create({
      model: 'tr-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'streamed through responses' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'streamed through responses');
    assert.ok(usage && usage.completion_tokens > 0);
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }];
    const first = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      tools,
      tool_choice: 'required',
      messages: [{ role: 'user', content: 'weather in Quito?' }],
    });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.deepEqual(validateAgainstSchema(JSON.parse(call.function.arguments), WEATHER), []);
    const second = await rig.openai.chat.completions.create({
      model: 'tr-chat',
      tools,
      messages: [
        { role: 'user', content: 'weather in Quito?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'mild, 17 degrees' },
      ],
    });
    assert.match(second.choices[0]!.message.content ?? '', /mild, 17 degrees/);
    const sent = await lastUpstreamBody();
    assert.deepEqual(
      sent.input.map((item: { type: string }) => item.type),
      ['message', 'function_call', 'function_call_output'],
    );
    assert.equal(sent.input[2].call_id, sent.input[1].call_id);
  });

  test('an Anthropic client and a Gemini client, text and tool calls', async () => {
    const answer = await rig.anthropic.messages.create({
      model: 'tr-echo',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'claude code into responses' }],
    });
    assert.equal(answer.content[0]!.type === 'text' && answer.content[0]!.text, 'claude code into responses');
    const final = await rig.anthropic.messages
      .stream({ model: 'tr-echo', max_tokens: 64, messages: [{ role: 'user', content: 'claude streams here' }] })
      .finalMessage();
    assert.equal(final.content[0]!.type === 'text' && final.content[0]!.text, 'claude streams here');
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: WEATHER as Anthropic.Tool.InputSchema }];
    const called = await rig.anthropic.messages.create({
      model: 'tr-chat',
      max_tokens: 64,
      tools,
      tool_choice: { type: 'tool', name: 'get_weather' },
      messages: [{ role: 'user', content: 'weather?' }],
    });
    const use = called.content.find((block) => block.type === 'tool_use')!;
    assert.deepEqual(validateAgainstSchema(use.input, WEATHER), []);
    const gemini = await rig.gemini.models.generateContent({ model: 'tr-echo', contents: 'gemini into responses' });
    assert.equal(gemini.text, 'gemini into responses');
  });

  test('Responses cannot take stop sequences: refused in the caller protocol, naming stop', async () => {
    await assert.rejects(
      rig.openai.chat.completions.create({ model: 'tr-echo', stop: ['END'], messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && /stop: .*Responses/.test(error.message),
    );
  });

  test("an upstream 429 reaches the clients as their SDKs' rate-limit errors", async () => {
    // The fault is the upstream's: the channel's extra header asks it of the upstream gateway.
    rig.speak('openai-responses', { headers: { 'x-gatehouse-fault': '429' } });
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

describe('a Responses client on a chat-completions channel is translated, and the gateway keeps its responses', () => {
  let rig: TranslationRig;
  before(async () => {
    rig = await startTranslationRig('openai-chat');
  });
  after(async () => rig.stop());

  test('create, retrieve, continue with previous_response_id and delete work on translated responses', async () => {
    const first = await rig.openai.responses.create({ model: 'tr-echo', input: 'remember this line' });
    assert.equal(first.output_text, 'remember this line');
    const again = await rig.openai.responses.retrieve(first.id);
    assert.equal(again.output_text, 'remember this line');
    const next = await rig.openai.responses.create({ model: 'tr-echo', input: 'and this one', previous_response_id: first.id });
    assert.equal(next.output_text, 'and this one');
    await settle();
    const [entry] = await journalEntries(rig.up, { path: '/v1/chat/completions' });
    const sent = JSON.parse(entry.request.text);
    assert.deepEqual(
      sent.messages.map((message: { role: string }) => message.role),
      ['user', 'assistant', 'user'],
      'the earlier turn went up from the gateway store',
    );
    await rig.openai.responses.delete(first.id);
    await assert.rejects(rig.openai.responses.retrieve(first.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
  });
});

describe('encrypted reasoning survives a round trip through an Anthropic client', () => {
  let fake: Server;
  let rig: TranslationRig;
  const bodies: any[] = [];
  before(async () => {
    // A stand-in reasoning model behind the Responses API: its answer has a reasoning item with encrypted content.
    fake = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        bodies.push(JSON.parse(text));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'resp_1',
            object: 'response',
            status: 'completed',
            model: 'o-thinker',
            output: [
              {
                id: 'rs_abc',
                type: 'reasoning',
                summary: [{ type: 'summary_text', text: 'Considering.' }],
                encrypted_content: 'gAAAAB-secret',
              },
              {
                id: 'msg_1',
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
              },
            ],
            usage: {
              input_tokens: 12,
              output_tokens: 30,
              output_tokens_details: { reasoning_tokens: 25 },
              input_tokens_details: { cached_tokens: 0 },
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    rig = await startTranslationRig('openai-responses');
    rig.speak('openai-responses', {
      baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/v1`,
      models: ['thinker=o-thinker'],
    });
  });
  after(async () => {
    await rig.stop();
    fake.close();
  });

  test('the reasoning item goes back upstream with its id and encrypted content on the next turn', async () => {
    const first = await rig.anthropic.messages.create({
      model: 'thinker',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'think' }],
    });
    assert.equal(first.content[0]!.type === 'thinking' && first.content[0]!.thinking, 'Considering.', 'the summary shows as thinking');
    const last = first.content.at(-1)!;
    assert.equal(last.type === 'text' && last.text, 'Done.');
    await rig.anthropic.messages.create({
      model: 'thinker',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'think' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'more' },
      ],
    });
    assert.deepEqual(bodies[1].input[1], {
      type: 'reasoning',
      id: 'rs_abc',
      summary: [{ type: 'summary_text', text: 'Considering.' }],
      encrypted_content: 'gAAAAB-secret',
    });
    assert.deepEqual(bodies[1].include, ['reasoning.encrypted_content']);
  });
});

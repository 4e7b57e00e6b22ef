// Integration tests: hostile JSON schemas at every schema-driven entry point get a 400 in the caller's protocol (official SDKs, raw ws for realtime), and the process keeps answering.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { openRaw } from '../helpers/realtime.ts';

/** minItems 1000 nested three deep: on main this blocked the loop ~40 s and ran out of heap. */
const CUBE = {
  type: 'object',
  properties: {
    rows: {
      type: 'array',
      minItems: 1000,
      items: { type: 'array', minItems: 1000, items: { type: 'array', minItems: 1000, items: { type: 'string' } } },
    },
  },
  required: ['rows'],
};
/** A self-reference: on main a 500 from a stack overflow. */
const SELF = { $ref: '#' };
/** Required recursion that never bottoms out. */
const ENDLESS = { type: 'object', properties: { child: { $ref: '#' } }, required: ['child'] };
const HOSTILE: [string, Record<string, unknown>, RegExp][] = [
  [
    'minItems 1000^3',
    CUBE,
    /cannot be satisfied within (the gateway's limits|the request's output token limit): .*(steps|tokens|characters)/,
  ],
  ['$ref to itself', SELF, /cannot be satisfied within the gateway's limits: \$ref '#' leads back to itself/],
  [
    'required recursion',
    ENDLESS,
    /cannot be satisfied within (the gateway's limits: a value would nest deeper than 64 levels|the request's output token limit: the value needs more than)/,
  ],
];

describe('hostile JSON schemas', { timeout: 120_000 }, () => {
  let gw: TestGateway;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let gemini: GoogleGenAI;
  before(async () => {
    gw = await startGateway();
    openai = new OpenAI({ apiKey: gw.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: gw.token, baseURL: gw.url, maxRetries: 0 });
    gemini = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url } });
  });
  after(() => gw.stop());

  /** Runs the hostile call with /healthz asked while it runs and after it: both must answer 200. */
  const whileAlive = async (call: () => Promise<unknown>): Promise<unknown> => {
    const [outcome, during] = await Promise.allSettled([call(), fetch(`${gw.url}/healthz`)]);
    assert.equal(during.status === 'fulfilled' && during.value.status, 200, '/healthz answers while the hostile request runs');
    assert.equal((await fetch(`${gw.url}/healthz`)).status, 200, '/healthz answers after it');
    assert.equal(outcome.status, 'rejected', 'the hostile request is refused');
    return (outcome as PromiseRejectedResult).reason;
  };
  const openaiRefusal = (error: unknown, message: RegExp) => {
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.type, 'invalid_request_error');
    assert.match(error.message, message);
  };

  for (const [name, schema, message] of HOSTILE) {
    test(`chat response_format json_schema: ${name} is a 400 invalid_request_error`, async () => {
      const error = await whileAlive(() =>
        openai.chat.completions.create({
          model: 'sim-chat',
          messages: [{ role: 'user', content: 'fill it' }],
          response_format: { type: 'json_schema', json_schema: { name: 'out', schema } },
        }),
      );
      openaiRefusal(error, message);
      assert.match((error as Error).message, /JSON schema of the response format/);
    });

    test(`chat tools (and legacy functions): ${name} is a 400 invalid_request_error`, async () => {
      const error = await whileAlive(() =>
        openai.chat.completions.create({
          model: 'sim-chat',
          messages: [{ role: 'user', content: 'fill it' }],
          tools: [{ type: 'function', function: { name: 'fill', parameters: schema } }],
          tool_choice: 'required',
        }),
      );
      openaiRefusal(error, message);
      assert.match((error as Error).message, /parameters schema of tool 'fill'/);
      const legacy = await whileAlive(() =>
        openai.chat.completions.create({
          model: 'sim-chat',
          messages: [{ role: 'user', content: 'fill it' }],
          functions: [{ name: 'fill', parameters: schema }],
          function_call: { name: 'fill' },
        }),
      );
      openaiRefusal(legacy, message);
    });

    test(`Responses text.format: ${name} is a 400 invalid_request_error`, async () => {
      const error = await whileAlive(() =>
        openai.responses.create({ model: 'sim-chat', input: 'fill it', text: { format: { type: 'json_schema', name: 'out', schema } } }),
      );
      openaiRefusal(error, message);
    });

    test(`Anthropic tools and output_config: ${name} is a 400 invalid_request_error`, async () => {
      const checks = (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, String(error));
        assert.equal((error.error as any).type, 'error');
        assert.equal((error.error as any).error.type, 'invalid_request_error');
        assert.match((error.error as any).error.message, message);
      };
      const ask = (extra: Partial<Anthropic.MessageCreateParamsNonStreaming>) =>
        whileAlive(() =>
          anthropic.messages.create({
            model: 'claude-sonnet-4-5',
            max_tokens: 1024,
            messages: [{ role: 'user', content: 'fill it' }],
            ...extra,
          }),
        );
      checks(await ask({ tools: [{ name: 'fill', input_schema: schema as Anthropic.Tool.InputSchema }], tool_choice: { type: 'any' } }));
      checks(
        await ask({ output_config: { format: { type: 'json_schema', schema } } } as Partial<Anthropic.MessageCreateParamsNonStreaming>),
      );
    });

    test(`Gemini responseJsonSchema and function parametersJsonSchema: ${name} is a 400 INVALID_ARGUMENT`, async () => {
      const checks = (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.status, 400);
        assert.match(error.message, /INVALID_ARGUMENT/);
        assert.match(error.message, message);
      };
      checks(
        await whileAlive(() =>
          gemini.models.generateContent({
            model: 'gemini-2.5-flash',
            contents: 'fill it',
            config: { responseMimeType: 'application/json', responseJsonSchema: schema },
          }),
        ),
      );
      checks(
        await whileAlive(() =>
          gemini.models.generateContent({
            model: 'gemini-2.5-flash',
            contents: 'fill it',
            config: {
              tools: [{ functionDeclarations: [{ name: 'fill', parametersJsonSchema: schema }] }],
              toolConfig: { functionCallingConfig: { mode: 'ANY' as never } },
            },
          }),
        ),
      );
    });
  }

  test('Gemini responseSchema (OpenAPI subset) with minItems 1000^3 or nested 100 deep is a 400 INVALID_ARGUMENT', async () => {
    let deep: Record<string, unknown> = { type: 'STRING' };
    for (let i = 0; i < 100; i++) deep = { type: 'ARRAY', items: deep };
    const cube = {
      type: 'ARRAY',
      minItems: '1000',
      items: { type: 'ARRAY', minItems: 1000, items: { type: 'ARRAY', minItems: 1000, items: { type: 'STRING' } } },
    };
    for (const [schema, message] of [
      // The body's own depth cap (64) refuses it before the schema's depth check can.
      [deep, /nests objects and arrays more than 64 levels deep|nested deeper than 64 levels/],
      [{ ...cube, minItems: 1000 }, /cannot be satisfied within the gateway's limits/],
    ] as const) {
      const error = await whileAlive(() =>
        gemini.models.generateContent({
          model: 'gemini-2.5-flash',
          contents: 'fill it',
          config: { responseMimeType: 'application/json', responseSchema: schema as never },
        }),
      );
      assert.ok(error instanceof ApiError && error.status === 400, String(error));
      assert.match(error.message, /INVALID_ARGUMENT/);
      assert.match(error.message, message);
    }
  });

  test('realtime session.update with a hostile tool schema gets an invalid_request_error event; the session stays usable', async () => {
    const client = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${gw.token}` },
    });
    await client.next('session.created');
    for (const [index, [, schema, message]] of HOSTILE.entries()) {
      client.send({
        type: 'session.update',
        event_id: `bad_${index}`,
        session: { type: 'realtime', tools: [{ type: 'function', name: 'fill', parameters: schema }], tool_choice: 'required' },
      });
      const error = await client.next((event) => event.type === 'error' && event.error.event_id === `bad_${index}`, 0);
      assert.equal(error.error.type, 'invalid_request_error');
      assert.match(error.error.message, message);
      assert.equal((await fetch(`${gw.url}/healthz`)).status, 200);
    }
    // Still usable: a normal tool is accepted and called.
    const tool = {
      type: 'function',
      name: 'get_time',
      parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
    };
    client.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['text'], tools: [tool], tool_choice: 'required' },
    });
    await client.next('session.updated');
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what time is it?' }] },
    });
    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    assert.equal(done.response.status, 'completed');
    assert.equal(done.response.output[0].name, 'get_time');
    assert.deepEqual(Object.keys(JSON.parse(done.response.output[0].arguments)), ['zone']);
    client.socket.close();
  });

  test('realtime response.create whose tool arguments cannot fit max_output_tokens gets one error event and no response; the next response works', async () => {
    const client = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${gw.token}` },
    });
    await client.next('session.created');
    const tags = {
      type: 'function',
      name: 'tag',
      parameters: { type: 'object', properties: { tags: { type: 'array', minItems: 40, items: { type: 'string' } } }, required: ['tags'] },
    };
    client.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['text'], tools: [tags], tool_choice: 'required', max_output_tokens: 20 },
    });
    await client.next('session.updated');
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'tag this' }] },
    });
    client.send({ type: 'response.create', event_id: 'too_long' });
    const error = await client.next((event) => event.type === 'error' && event.error.event_id === 'too_long', 0);
    assert.equal(error.error.type, 'invalid_request_error');
    assert.equal(
      error.error.message,
      "The parameters schema of tool 'tag' cannot be satisfied within the request's output token limit: the value needs more than 20 tokens.",
    );
    client.send({ type: 'response.create', event_id: 'fits', response: { max_output_tokens: 400 } });
    const done = await client.next('response.done');
    assert.equal(done.response.status, 'completed');
    assert.equal(JSON.parse(done.response.output[0].arguments).tags.length, 40);
    assert.equal(
      client.events.filter((event) => event.type === 'response.created').length,
      1,
      'the refused response.create sent no response events',
    );
    client.socket.close();
  });
});

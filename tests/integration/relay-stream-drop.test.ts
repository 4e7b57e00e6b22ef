// Integration tests: an upstream that sends some stream events and then drops the connection ends each client's stream with its protocol's error (official SDKs), with every text piece sent before the drop delivered.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { ChannelKind } from '../../electron/gateway/providers/types.ts';
import type { TestGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

const PIECES = ['The first piece, ', 'the second piece, ', 'the last piece before the drop.'];

/** Gemini `alt=sse` events, one per piece, then the socket destroyed (no finishReason, no end). */
const geminiEvents = () =>
  PIECES.map(
    (text) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], modelVersion: 'm' })}\r\n\r\n`,
  );

/** OpenAI chat chunks, one per piece, then the socket destroyed (no finish_reason, no [DONE]). */
const openaiEvents = () =>
  PIECES.map(
    (content, index) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-drop',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: index === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }],
      })}\n\n`,
  );

const opened: Array<{ upstream: HostileUpstream; gateway: TestGateway }> = [];
after(async () => {
  for (const { upstream, gateway } of opened) {
    await gateway.stop();
    await upstream.close();
  }
});

/** A gateway whose one channel (`kind`) streams `events` and then destroys the socket. */
async function droppingUpstream(kind: ChannelKind, events: string[]): Promise<TestGateway> {
  const upstream = await hostileUpstream((_, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of events) response.write(event);
    // Destroyed once the events are out on the wire, as a dropped connection would be.
    response.write('', () => setImmediate(() => response.socket?.destroy()));
  });
  const gateway = await gatewayBefore(upstream, kind);
  opened.push({ upstream, gateway });
  return gateway;
}

const geminiClient = (gateway: TestGateway) =>
  new GoogleGenAI({ apiKey: gateway.token, httpOptions: { baseUrl: gateway.url, apiVersion: 'v1beta' } });

/** Reads a Gemini stream until it ends or throws; returns the text received and the error (undefined for a clean end). */
async function readGemini(gateway: TestGateway, model: string): Promise<{ text: string; error: unknown }> {
  let text = '';
  try {
    const stream = await geminiClient(gateway).models.generateContentStream({ model, contents: 'tell me' });
    for await (const chunk of stream) text += chunk.text ?? '';
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

describe('an upstream that drops mid-stream', () => {
  test('Gemini pass-through (alt=sse): the @google/genai SDK raises after every piece sent', async () => {
    const gateway = await droppingUpstream('gemini', geminiEvents());
    const { text, error } = await readGemini(gateway, 'gemini-2.5-flash');
    assert.equal(text, PIECES.join(''));
    assert.ok(error instanceof ApiError, `the stream ended without Gemini's error (${String(error)})`);
    assert.match(error.message, /UNAVAILABLE.*broke off the answer/);
  });

  test('Gemini client before an OpenAI channel: the SDK raises after every piece sent, the last one included', async () => {
    const gateway = await droppingUpstream('openai', openaiEvents());
    const { text, error } = await readGemini(gateway, 'gpt-4o-mini');
    assert.equal(text, PIECES.join(''));
    assert.ok(error instanceof ApiError, `the stream ended without Gemini's error (${String(error)})`);
    assert.match(error.message, /UNAVAILABLE.*broke off the answer/);
  });

  test('OpenAI chat client before a Gemini channel: the SDK raises after every piece sent', async () => {
    const gateway = await droppingUpstream('gemini', geminiEvents());
    const openai = new OpenAI({ apiKey: gateway.token, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    let text = '';
    await assert.rejects(
      async () => {
        const stream = await openai.chat.completions.create({
          model: 'gemini-2.5-flash',
          stream: true,
          messages: [{ role: 'user', content: 'tell me' }],
        });
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      },
      (error) => error instanceof OpenAI.APIError && /broke off the answer/.test(error.message),
    );
    assert.equal(text, PIECES.join(''));
  });

  test('Anthropic client before a Gemini channel: the SDK raises after every piece sent', async () => {
    const gateway = await droppingUpstream('gemini', geminiEvents());
    const anthropic = new Anthropic({ apiKey: gateway.token, baseURL: gateway.url, maxRetries: 0 });
    let text = '';
    await assert.rejects(
      async () => {
        const stream = anthropic.messages.stream({
          model: 'gemini-2.5-flash',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'tell me' }],
        });
        for await (const event of stream)
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      },
      (error) => error instanceof Anthropic.APIError && /api_error.*broke off the answer/.test(error.message),
    );
    assert.equal(text, PIECES.join(''));
  });
});

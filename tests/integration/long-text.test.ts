// Integration tests of prompts at the body limit: /healthz keeps answering while a 30 MB simulated chat or count_tokens is worked on, and an unbroken 8-million-character CJK word gets a normal answer in every protocol.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

/**
 * A /healthz answer slower than this means the event loop was held by the prompt's work (the stall before the fix was
 * about 5 s on a quiet machine, more on a busy one). Generous: the body's own JSON.parse of 30 MB still holds the loop a
 * few hundred ms, which on a slow two-core machine beside two CPU-bound processes read 1.25 s (b6ad842 as well).
 */
const HEALTHZ_BOUND_MS = 3000;
/** An unbroken word of CJK letters: one token, and a stack overflow for a regular expression run over it. */
const CJK_WORD = '\u6c49'.repeat(8_000_000);

describe('long prompts', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.stop());

  /** Posts `body` (prepared bytes: this process, which is also the client, does no JSON work meanwhile) while polling /healthz. */
  async function pollWhile(path: string, body: Buffer, headers: Record<string, string> = {}) {
    let done = false;
    let slowest = 0;
    let answered = 0;
    const call = fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json', ...headers },
      body,
    })
      .then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }))
      .finally(() => (done = true));
    while (!done) {
      const sent = performance.now();
      const response = await fetch(`${gw.url}/healthz`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      if (!done) answered++;
      slowest = Math.max(slowest, performance.now() - sent);
    }
    return { answer: await call, slowest, answered };
  }

  /** A body of about 30 MB: one user message of prose, not all of it ASCII. */
  const prose = (field: (content: string) => unknown) =>
    Buffer.from(JSON.stringify(field('Tell me about the gardens of Kyōto, please. '.repeat(660_000))));

  test('/healthz answers within the bound each while a 30 MB simulated chat is answered', async () => {
    const body = prose((content) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }));
    assert.ok(body.length > 29_000_000);
    const { answer, slowest, answered } = await pollWhile('/v1/chat/completions', body);
    assert.equal(answer.status, 200);
    assert.ok(answered >= 2, `only ${answered} /healthz answers while the chat was worked on`);
    assert.ok(slowest < HEALTHZ_BOUND_MS, `the slowest /healthz took ${Math.round(slowest)} ms`);
  });

  test('/healthz answers within the bound each while a 30 MB count_tokens is counted', async () => {
    const body = prose((content) => ({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content }] }));
    const { answer, slowest, answered } = await pollWhile('/v1/messages/count_tokens', body, { 'anthropic-version': '2023-06-01' });
    assert.equal(answer.status, 200);
    assert.ok((answer.body['input_tokens'] as number) > 6_000_000);
    assert.ok(answered >= 2, `only ${answered} /healthz answers while the tokens were counted`);
    assert.ok(slowest < HEALTHZ_BOUND_MS, `the slowest /healthz took ${Math.round(slowest)} ms`);
  });

  test('an 8-million-character CJK word is one token: chat and count_tokens answer normally (OpenAI, Anthropic, Gemini)', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const chat = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: CJK_WORD }] });
    const short = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: '\u6c49' }] });
    assert.equal(chat.usage?.prompt_tokens, short.usage?.prompt_tokens);
    assert.ok(chat.choices[0]!.message.content!.length < 4096, 'the answer does not repeat the huge word');

    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    const counted = await anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: CJK_WORD }] });
    const one = await anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: '\u6c49' }] });
    assert.equal(counted.input_tokens, one.input_tokens);

    const gemini = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    const total = await gemini.models.countTokens({ model: 'gemini-2.5-flash', contents: CJK_WORD });
    const single = await gemini.models.countTokens({ model: 'gemini-2.5-flash', contents: '\u6c49' });
    assert.equal(total.totalTokens, single.totalTokens);
  });

  test("a large prompt answered on the worker pool still gets the 400 of a schema past the limits, in the caller's shape", async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', minItems: 1_000_000_000, items: { type: 'string' } } },
      required: ['a'],
    };
    const refused = await openai.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Tell me about the gardens of Kyōto. '.repeat(10_000) }],
        response_format: { type: 'json_schema', json_schema: { name: 'big', schema } },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(refused instanceof OpenAI.APIError, 'the schema was satisfied');
    assert.equal(refused.status, 400);
    assert.equal((refused.error as { type?: string }).type, 'invalid_request_error');
    assert.match(refused.message, /limits/);
  });

  test('an 8-million-character CJK word is one embedding input like any other', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const embedded = await openai.embeddings.create({ model: 'text-embedding-3-small', input: CJK_WORD });
    assert.equal(embedded.data.length, 1);
    assert.equal(embedded.usage.prompt_tokens, 1);
  });
});

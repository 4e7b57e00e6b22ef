// Integration tests of strict mode: a call no fixture matches is refused with a 404 in its own protocol's error shape, naming the closest fixture and how it differs; the per-request header turns it on and off.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { JournalPage } from '../../shared/journal.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const CLOSEST =
  /No fixture matched this [\w-]+ call \(strict mode\)\. The closest is "greeting": user message contains "hello", but got "goodbye"/;

describe('strict mode', () => {
  const dirs = tempDirs();
  let strict: TestGateway;
  let lenient: TestGateway;
  before(async () => {
    const file = path.join(dirs.fresh(), 'one.json');
    writeFileSync(file, JSON.stringify({ fixtures: [{ name: 'greeting', match: { user: 'hello' }, response: { text: 'Hi!' } }] }));
    [strict, lenient] = await Promise.all([startGateway({ fixtures: [file], strict: true }), startGateway({ fixtures: [file] })]);
  });
  after(async () => {
    await Promise.all([strict.stop(), lenient.stop()]);
    dirs.removeAll();
  });

  test('OpenAI chat and Responses: 404 invalid_request_error naming the closest fixture', async () => {
    const openai = new OpenAI({ baseURL: `${strict.url}/v1`, apiKey: strict.token, maxRetries: 0 });
    const chat = await failure(openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'goodbye' }] }));
    assert.ok(chat instanceof OpenAI.NotFoundError);
    assert.equal(chat.type, 'invalid_request_error');
    assert.match(chat.message, CLOSEST);
    const responses = await failure(openai.responses.create({ model: 'gpt-4o', input: 'goodbye', stream: true }));
    assert.ok(responses instanceof OpenAI.NotFoundError);
    assert.match(responses.message, CLOSEST);
    // The matched call is answered as scripted.
    const hit = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(hit.choices[0]!.message.content, 'Hi!');
  });

  test('Anthropic: 404 not_found_error; Gemini: 404 NOT_FOUND', async () => {
    const anthropic = new Anthropic({ baseURL: strict.url, apiKey: strict.token, maxRetries: 0 });
    const refused = await failure(
      anthropic.messages.create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'goodbye' }] }),
    );
    assert.ok(refused instanceof Anthropic.NotFoundError);
    const { error } = refused.error as { error: { type: string; message: string } };
    assert.equal(error.type, 'not_found_error');
    assert.match(error.message, CLOSEST);

    const gemini = new GoogleGenAI({ apiKey: strict.token, httpOptions: { baseUrl: strict.url, apiVersion: 'v1beta' } });
    const geminiRefused = await failure(gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: 'goodbye' }));
    assert.ok(geminiRefused instanceof ApiError);
    assert.equal(geminiRefused.status, 404);
    assert.match(geminiRefused.message, /"status":\s*"NOT_FOUND"/);
    assert.match(geminiRefused.message, /The closest is \\?"greeting\\?"/);
  });

  test("a strict refusal is the fixtures' answer: its header and its journal entry name fixtures as the source", async () => {
    const refused = await request(`${strict.url}/v1/chat/completions`, 'POST', {
      token: strict.token,
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'goodbye' }] },
    });
    assert.equal(refused.status, 404);
    assert.equal(refused.headers.get('x-gatehouse-source'), 'fixture');
    const entry = await eventually(async () => {
      const page = await request<JournalPage>(`${strict.url}/admin/api/journal?outcome=error`, 'GET', { token: strict.gateway.adminToken });
      return page.body.items.find((item) => item.status === 404);
    }, 'the journal entry of the refused call');
    assert.equal(entry.source, 'fixture');
    assert.equal(entry.fixture, null, 'no fixture answered it');
  });

  test('x-gatehouse-strict turns strict mode off or on for one request', async () => {
    const off = new OpenAI({
      baseURL: `${strict.url}/v1`,
      apiKey: strict.token,
      maxRetries: 0,
      defaultHeaders: { 'x-gatehouse-strict': '0' },
    });
    const simulated = await off.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'goodbye' }] });
    assert.equal(simulated.choices.length, 1);
    const on = new OpenAI({
      baseURL: `${lenient.url}/v1`,
      apiKey: lenient.token,
      maxRetries: 0,
      defaultHeaders: { 'x-gatehouse-strict': '1' },
    });
    const refused = await failure(on.embeddings.create({ model: 'text-embedding-3-small', input: 'goodbye' }));
    assert.ok(refused instanceof OpenAI.NotFoundError);
    assert.match(refused.message, /No fixture matched this embeddings call \(strict mode\)\. The closest is "greeting"/);
    // aimock's header does the same.
    const aimockStyle = new OpenAI({
      baseURL: `${lenient.url}/v1`,
      apiKey: lenient.token,
      maxRetries: 0,
      defaultHeaders: { 'X-AIMock-Strict': 'true' },
    });
    assert.ok(
      (await failure(aimockStyle.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'goodbye' }] }))) instanceof
        OpenAI.NotFoundError,
    );
  });
});

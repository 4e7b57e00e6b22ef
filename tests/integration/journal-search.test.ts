// Integration tests of the journal's call figures (token name, billed usage and cost, time to first output) and its bounded body search and time range.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { JOURNAL_SEARCH_SCAN } from '../../shared/journal.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { journalRecord, keptBody } from '../helpers/journal.ts';

describe('journal figures and search', () => {
  let server: TestGateway;
  let client: OpenAI;
  const admin = (path: string) => request(`${server.url}/admin/api${path}`, 'GET', { token: server.gateway.adminToken });

  before(async () => {
    server = await startGateway();
    client = new OpenAI({ apiKey: server.token, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  after(() => server.stop());

  test('a billed call lists its token, usage and cost as the SDK saw them; a stream its time to first output', async () => {
    const answer = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'figures please' }] });
    const [row] = (await admin('/journal?path=/v1/chat/completions')).body.items;
    assert.equal(row.token, 'first token');
    assert.equal(row.usage.inputTokens, answer.usage!.prompt_tokens);
    assert.equal(row.usage.outputTokens, answer.usage!.completion_tokens);
    assert.ok(row.usage.cost > 0);
    assert.equal(row.firstOutputMs, null, 'not a stream');

    const anthropic = new Anthropic({ apiKey: server.token, baseURL: server.url, maxRetries: 0 });
    const stream = anthropic.messages.stream({ model: 'sim-chat', max_tokens: 50, messages: [{ role: 'user', content: 'stream' }] });
    const final = await stream.finalMessage();
    const [streamed] = (await admin('/journal?protocol=anthropic')).body.items;
    assert.equal(streamed.stream, true);
    assert.equal(streamed.usage.outputTokens, final.usage.output_tokens);
    assert.ok(Number.isInteger(streamed.firstOutputMs) && streamed.firstOutputMs <= streamed.durationMs);
    const entry = (await admin(`/journal/${streamed.id}`)).body;
    assert.ok(entry.firstOutputMs >= entry.timing.firstByteMs, 'the first output comes with or after the first byte');

    const portrait = await request(`${server.url}/v1/portrait/groups`, 'GET', { token: server.token });
    assert.equal(portrait.status, 200);
    const [unbilled] = (await admin('/journal?protocol=portrait')).body.items;
    assert.equal(unbilled.usage, null, 'portrait calls are not billed');
  });

  test('a search matches request or response text in any case; the time range bounds the list; bad bounds are refused', async () => {
    const answer = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'a Quokka-Waltz here' }],
    });
    const found = await admin('/journal?q=quokka-WALTZ');
    assert.equal(found.body.total, 1);
    const { at } = found.body.items[0];
    // A phrase only the answer holds finds the call too.
    const phrase = answer.choices[0]!.message.content!.slice(0, 40);
    assert.ok(!'a Quokka-Waltz here'.includes(phrase));
    const byAnswer = await admin(`/journal?q=${encodeURIComponent(phrase.toUpperCase())}`);
    assert.ok(
      byAnswer.body.items.some((item: { id: number }) => item.id === found.body.items[0].id),
      'the answer is searched too',
    );
    assert.equal((await admin('/journal?q=no-such-words-anywhere')).body.total, 0);
    assert.equal((await admin(`/journal?q=quokka&to=${at - 1}`)).body.total, 0);
    assert.equal((await admin(`/journal?q=quokka&from=${at}&to=${at}`)).body.total, 1);
    const bad = await admin('/journal?from=yesterday');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'from');
  });

  test(`a search reads the newest ${JOURNAL_SEARCH_SCAN} calls that match the other filters, no more`, async () => {
    const { journalStore } = server.gateway.context;
    const record = (text: string) => journalRecord({ at: Date.now(), model: 'bulk' }, { request: keptBody(text) });
    await journalStore.insert([record('the old needle'), ...Array.from({ length: JOURNAL_SEARCH_SCAN }, () => record('hay'))], 5000);
    assert.equal((await journalStore.list({ model: 'bulk', q: 'needle' }, 1, 20)).total, 0, 'beyond the scanned calls');
    await journalStore.insert([record('a new needle')], 5000);
    assert.equal((await journalStore.list({ model: 'bulk', q: 'needle' }, 1, 20)).total, 1);
    assert.equal((await journalStore.list({ model: 'bulk' }, 1, 20)).total, JOURNAL_SEARCH_SCAN + 2);
  });
});

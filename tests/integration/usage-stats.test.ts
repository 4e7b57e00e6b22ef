// Integration tests of the dashboard's admin routes: usage totals kept per day (spend, tokens, calls, errors, latency) and the models list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { UsageStats } from '../../shared/usage-stats.ts';
import type { ModelEntry } from '../../shared/models.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

describe('usage dashboard and models (admin API)', () => {
  let server: TestGateway;
  const admin = (path: string) => request(`${server.url}/admin/api${path}`, 'GET', { token: server.gateway.adminToken });

  before(async () => {
    server = await startGateway({ modelAliases: { 'my-chat': 'sim-chat' } });
  });
  after(() => server.stop());

  test('calls, errors, tokens and spend of today appear by day, model, token and account', async () => {
    const { reply, stats } = await sampleCalls(server);
    countedOnce(stats);
    // The calls may straddle midnight UTC: the range's totals are the sum of its days, and the last day is today.
    assert.equal(stats.days.length, 7);
    assert.ok(stats.days.at(-1)!.day >= new Date(Date.now() - 60_000).toISOString().slice(0, 10));
    const { totals } = stats;
    assert.equal(totals.billedCalls, 2);
    assert.ok(totals.inputTokens >= reply.usage!.prompt_tokens);
    assert.ok(totals.spend > 0);
    const chat = stats.byModel.find((row) => row.key === 'sim-chat')!;
    assert.equal(chat.inputTokens, reply.usage!.prompt_tokens);
    assert.equal(chat.outputTokens, reply.usage!.completion_tokens);
    assert.equal(stats.byAccount.length, 1);
    assert.equal(stats.byAccount[0]!.label, 'local');
    assert.equal(stats.byToken[0]!.label, 'local / first token');
    assert.equal(typeof stats.latency.p50, 'number');
  });

  test('a range outside 1–90 days is a 400 naming the field', async () => {
    for (const days of ['0', '91', 'week']) {
      const { status, body } = await admin(`/usage?days=${days}`);
      assert.equal(status, 400);
      assert.equal(body.error.param, 'days');
    }
  });

  test('the models list has every simulated model and alias with its price and server', async () => {
    const { status, body } = await admin('/models');
    assert.equal(status, 200);
    const models = body as ModelEntry[];
    const chat = models.find((model) => model.id === 'sim-chat')!;
    assert.equal(chat.chat, true);
    assert.deepEqual(chat.price, { kind: 'tokens', inputPerMillion: 1, outputPerMillion: 3, perCall: 0 });
    assert.deepEqual(chat.servedBy, [{ kind: 'simulator' }]);
    assert.equal(models.find((model) => model.id === 'sim-embed')!.chat, false);
    assert.equal(models.find((model) => model.id === 'sim-image')!.price.kind, 'image');
    const alias = models.find((model) => model.id === 'my-chat')!;
    assert.equal(alias.aliasOf, 'sim-chat');
    assert.deepEqual(alias.price, chat.price);
  });
});

test('with the journal off, each call of a known token is still counted once in the dashboard, and a call naming none is not', async () => {
  const server = await startGateway({ journal: false });
  try {
    countedOnce((await sampleCalls(server)).stats);
  } finally {
    await server.stop();
  }
});

/** Makes the dashboard's sample calls (two answered chats, a 429, a call naming no token of the gateway), then reads the week's usage. */
async function sampleCalls(server: TestGateway) {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
  const reply = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'Hello there' }] });
  await client.chat.completions.create({ model: 'sim-echo', messages: [{ role: 'user', content: 'Echo me' }] });
  await assert.rejects(client.chat.completions.create({ model: 'sim-chat-fault-429', messages: [{ role: 'user', content: 'x' }] }));
  // A call naming no token of this gateway is not counted.
  await assert.rejects(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-unknown', maxRetries: 0 }).models.list());
  const { status, body } = await request(`${server.url}/admin/api/usage?days=7`, 'GET', { token: server.gateway.adminToken });
  assert.equal(status, 200);
  return { reply, stats: body as UsageStats };
}

/** The sample calls counted once each, the one naming no token not at all: in the totals, the days, the latency buckets and by model. */
function countedOnce(stats: UsageStats) {
  assert.equal(stats.totals.calls, 3);
  assert.equal(stats.totals.errors, 1);
  assert.equal(
    stats.days.reduce((sum, day) => sum + day.calls, 0),
    3,
  );
  assert.equal(
    stats.latency.buckets.reduce((sum, n) => sum + n, 0),
    3,
  );
  assert.equal(stats.byModel.find((row) => row.key === 'sim-chat')?.calls, 1);
  assert.equal(stats.byModel.find((row) => row.key === 'sim-chat-fault-429')?.errors, 1);
}

// Integration tests of the testing API: x-request-id on every answer, test ids on journal entries and fault counters, journal filters, POST /admin/api/reset and the clock.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import WebSocket from 'ws';
import { manualClock } from '../helpers/clock.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';

const CHAT = { model: 'sim-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
const REVIEW_MS = 10_000;
const SIM_3D_MS = 15_000;
const SCAN_MS = 60_000;

describe('the testing API', () => {
  let gw: TestGateway;
  const client = (headers: Record<string, string> = {}, maxRetries = 0) =>
    new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries, defaultHeaders: headers });
  const admin = (method: string, route: string, body?: unknown) =>
    request(`${gw.url}/admin/api${route}`, method, {
      headers: { authorization: `Bearer ${gw.gateway.adminToken}` },
      ...(body !== undefined && { body }),
    });
  const journal = async (query: string) => {
    const page = await admin('GET', `/journal?page_size=100&${query}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    return page.body.items as { id: number; test_id: string | null; request_id: string | null; source: string; path: string }[];
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  before(async () => {
    // A base clock that stands still: only the testing API's advance moves the gateway's time here, so what does not
    // move without it stays put however slow the machine is.
    gw = await startGateway({ clock: manualClock(), simReviewMs: REVIEW_MS, sim3dMs: SIM_3D_MS, refreshIntervalMs: SCAN_MS });
  });
  after(() => gw.stop());

  test('every answer carries x-request-id (200, 400, 404, a 429 fault, a stream), the caller’s echoed, and the journal finds the call by it', async () => {
    const ok = await client().chat.completions.create(CHAT).withResponse();
    assert.match(ok.response.headers.get('x-request-id') ?? '', /^req_[A-Za-z0-9]{20}$/);
    const echoed = await client({ 'x-request-id': 'ci-run.42:step-1' }).chat.completions.create(CHAT).withResponse();
    assert.equal(echoed.response.headers.get('x-request-id'), 'ci-run.42:step-1');
    const replaced = await client({ 'x-request-id': 'has spaces/and slashes' }).chat.completions.create(CHAT).withResponse();
    assert.match(replaced.response.headers.get('x-request-id') ?? '', /^req_/, 'a request id that is not a plain one is replaced');

    const bad = await failure(client().chat.completions.create({ ...CHAT, messages: 'nope' as never }));
    assert.ok(bad instanceof OpenAI.BadRequestError);
    assert.match(bad.headers.get('x-request-id') ?? '', /^req_/);
    const missing = await request(`${gw.url}/v1/no-such-endpoint`, 'GET', { token: gw.token });
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('x-request-id') ?? '', /^req_/);
    const limited = await failure(client({ 'x-gatehouse-fault': '429', 'x-request-id': 'rid-429' }).chat.completions.create(CHAT));
    assert.ok(limited instanceof OpenAI.RateLimitError);
    assert.equal(limited.headers.get('x-request-id'), 'rid-429');
    const stream = await client({ 'x-request-id': 'rid-stream' })
      .chat.completions.create({ ...CHAT, stream: true })
      .withResponse();
    for await (const _chunk of stream.data);
    assert.equal(stream.response.headers.get('x-request-id'), 'rid-stream');
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, {
      headers: { authorization: `Bearer ${gw.token}`, 'x-request-id': 'rid-realtime' },
    });
    const [upgrade] = (await once(socket, 'upgrade')) as [IncomingMessage];
    assert.equal(upgrade.headers['x-request-id'], 'rid-realtime', 'the realtime upgrade’s 101 too');
    socket.close();
    const health = await fetch(`${gw.url}/healthz`);
    assert.match(health.headers.get('x-request-id') ?? '', /^req_/);
    const adminAnswer = await admin('GET', '/clock');
    assert.match(adminAnswer.headers.get('x-request-id') ?? '', /^req_/);

    const [found] = await journal('request_id=ci-run.42:step-1');
    assert.equal(found?.request_id, 'ci-run.42:step-1');
    assert.equal(found.source, 'simulate');
    assert.equal((await journal('request_id=rid-429'))[0]?.request_id, 'rid-429');
    assert.equal((await journal('request_id=rid-stream')).length, 1);
  });

  test('two tests at once: 429*1 counters are their own, and the journal lists each test’s calls with its full bodies', async () => {
    const [a, b] = ['test-a', 'test-b'].map((id) => client({ 'x-gatehouse-test-id': id, 'x-gatehouse-fault': '429*1' }));
    const body = { ...CHAT, messages: [{ role: 'user' as const, content: 'same request in two tests' }] };
    // The same request in both tests: each test's first attempt fails, its second succeeds.
    const [firstA, firstB] = await Promise.all([failure(a!.chat.completions.create(body)), failure(b!.chat.completions.create(body))]);
    assert.ok(firstA instanceof OpenAI.RateLimitError, 'A’s first attempt');
    assert.ok(firstB instanceof OpenAI.RateLimitError, 'B’s first attempt: A’s did not use up its counter');
    const [secondA, secondB] = await Promise.all([a!.chat.completions.create(body), b!.chat.completions.create(body)]);
    assert.equal(secondA.object, 'chat.completion');
    assert.equal(secondB.object, 'chat.completion');
    await client({ 'x-test-id': 'test-b' }).embeddings.create({ model: 'sim-embed', input: 'aimock header' });

    const listedA = await journal('test_id=test-a');
    assert.deepEqual(
      listedA.map((item) => item.test_id),
      ['test-a', 'test-a'],
    );
    const listedB = await journal('test_id=test-b');
    assert.equal(listedB.length, 3, 'aimock’s x-test-id tags too');
    const entry = await admin('GET', `/journal/${listedA[0]!.id}`);
    assert.equal(entry.body.test_id, 'test-a');
    assert.equal(entry.body.source, 'simulate');
    assert.deepEqual(JSON.parse(entry.body.request.text).messages, body.messages, 'the full request body as received');
    assert.equal(JSON.parse(entry.body.response.text).object, 'chat.completion');
  });

  test('reset of one test id clears only its entries, fixtures and counters', async () => {
    const fixture = { match: { userMessage: 'scripted' }, response: { content: 'from a fixture' } };
    for (const testId of ['reset-a', 'reset-b'])
      assert.equal((await admin('POST', '/fixtures', { fixtures: [fixture], test_id: testId })).status, 200);
    const scoped = (id: string, extra: Record<string, string> = {}) => client({ 'x-gatehouse-test-id': id, ...extra });
    const ask = { ...CHAT, messages: [{ role: 'user' as const, content: 'scripted please' }] };
    for (const id of ['reset-a', 'reset-b']) {
      const answer = await scoped(id).chat.completions.create(ask);
      assert.equal(answer.choices[0]?.message.content, 'from a fixture');
      assert.ok(
        (await failure(scoped(id, { 'x-gatehouse-fault': '429*1' }).chat.completions.create(CHAT))) instanceof OpenAI.RateLimitError,
      );
    }
    assert.equal((await journal('test_id=reset-a'))[1]?.source, 'fixture');

    const reset = await admin('POST', '/reset', { test_id: 'reset-a' });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.deepEqual(reset.body.reset, { test_id: 'reset-a', journal: 2, fixtures: 1, fault_counters: 1 });
    assert.equal((await journal('test_id=reset-a')).length, 0);
    assert.equal((await journal('test_id=reset-b')).length, 2, 'the other test keeps its entries');
    const simulated = await scoped('reset-a').chat.completions.create(ask);
    assert.notEqual(simulated.choices[0]?.message.content, 'from a fixture', 'A’s fixture is gone');
    assert.equal((await scoped('reset-b').chat.completions.create(ask)).choices[0]?.message.content, 'from a fixture');
    // A's counter started over: its first attempt fails again; B's is still spent.
    assert.ok(
      (await failure(scoped('reset-a', { 'x-gatehouse-fault': '429*1' }).chat.completions.create(CHAT))) instanceof OpenAI.RateLimitError,
    );
    assert.equal((await scoped('reset-b', { 'x-gatehouse-fault': '429*1' }).chat.completions.create(CHAT)).object, 'chat.completion');

    const refused = await admin('POST', '/reset', { test_id: 'reset-a', data: true });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.param, 'data');
    assert.match(refused.body.error.message, /not tagged by test id/);
  });

  test('reset with data: true empties groups, assets, 3D tasks, responses and files; everything else stays', async () => {
    const portrait = portraitClient(gw.url, gw.token);
    const group = dataOf(await portrait.createGroup({ name: 'to be reset' }));
    dataOf(await portrait.createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/reset.png', asset_type: 'Image' }));
    const task = await request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, body: { prompt: 'a cube' } });
    assert.equal(task.status, 200);
    const stored = await client().responses.create({ model: 'sim-chat', input: 'keep me', store: true });
    const file = await client().files.create({ file: await toFile(Buffer.from('hello'), 'a.txt'), purpose: 'user_data' });
    assert.ok(readdirSync(path.join(gw.dataDir, 'files', 'uploads')).length > 0);

    const before = Math.max(...(await journal('')).map((item) => item.id));
    const reset = await admin('POST', '/reset', { data: true });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const { data } = reset.body.reset;
    assert.ok(data.groups >= 1 && data.assets >= 1 && data.tasks3d >= 1 && data.responses >= 1 && data.files >= 1, JSON.stringify(data));
    assert.equal(reset.body.reset.test_id, null);
    assert.deepEqual(dataOf(await portrait.listGroups()).items, []);
    assert.deepEqual(dataOf(await portrait.listAssets()).items, []);
    assert.equal((await request(`${gw.url}/v1/3d/generations/${task.body.task_id}`, 'GET', { token: gw.token })).status, 404);
    assert.ok((await failure(client().responses.retrieve(stored.id))) instanceof OpenAI.NotFoundError);
    assert.ok((await failure(client().files.retrieve(file.id))) instanceof OpenAI.NotFoundError);
    assert.equal(existsSync(path.join(gw.dataDir, 'files', 'uploads')), false);
    assert.ok(
      (await journal('')).every((item) => item.id > before),
      'the whole journal went (only the calls made since are listed)',
    );
    assert.equal((await client().chat.completions.create(CHAT)).object, 'chat.completion', 'the token and account stay');
  });

  test('the clock: an advance is seen at once by the review, 3D tasks, background responses, batches, token expiry and the scan', async () => {
    const start = (await admin('GET', '/clock')).body;
    assert.equal(typeof start.offset_ms, 'number');
    for (const ms of [0, -5, 1.5, '1000', 11 * 365 * 24 * 3600 * 1000]) {
      const refused = await admin('POST', '/clock/advance', { ms });
      assert.equal(refused.status, 400, String(ms));
      assert.equal(refused.body.error.param, 'ms');
    }
    const portrait = portraitClient(gw.url, gw.token);
    const group = dataOf(await portrait.createGroup({ name: 'clock' }));
    const asset = dataOf(
      await portrait.createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/clock.png', asset_type: 'Image' }),
    );
    const scanned = dataOf(
      await portrait.createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/scan.png', asset_type: 'Image' }),
    );
    assert.equal(dataOf(await portrait.getAsset(asset.asset_id)).status, 'Processing');
    const task = (await request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, body: { prompt: 'a teapot' } })).body;
    const background = await client().responses.create({ model: 'sim-chat', input: 'later', background: true });
    assert.equal(background.status, 'queued');
    const input = await client().files.create({
      file: await toFile(
        Buffer.from(JSON.stringify({ custom_id: 'l1', method: 'POST', url: '/v1/chat/completions', body: CHAT }) + '\n'),
        'batch.jsonl',
      ),
      purpose: 'batch',
    });
    const batch = await client().batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const expiring = await admin('POST', '/tokens', {
      account: 'local',
      name: 'expiring',
      expires_at: Date.parse((await admin('GET', '/clock')).body.now) + 60_000,
    });
    assert.equal(expiring.status, 200, JSON.stringify(expiring.body));
    const expiringClient = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: expiring.body.secret, maxRetries: 0 });
    assert.equal((await expiringClient.models.list()).object, 'list');

    // Without an advance everything stays put (what a test would otherwise sleep through).
    assert.equal(dataOf(await portrait.getAsset(asset.asset_id)).status, 'Processing');
    assert.notEqual((await request(`${gw.url}/v1/3d/generations/${task.task_id}`, 'GET', { token: gw.token })).body.status, 'SUCCESS');
    assert.notEqual((await client().responses.retrieve(background.id)).status, 'completed');
    assert.equal((await client().batches.retrieve(batch.id)).status, 'validating');

    const advanced = await admin('POST', '/clock/advance', { ms: SCAN_MS });
    assert.equal(advanced.status, 200, JSON.stringify(advanced.body));
    assert.equal(advanced.body.offset_ms, start.offset_ms + SCAN_MS);
    assert.ok(Date.parse(advanced.body.now) >= Date.parse(start.now) + SCAN_MS);
    assert.deepEqual((await admin('GET', '/clock')).body.offset_ms, advanced.body.offset_ms);

    assert.equal(dataOf(await portrait.getAsset(asset.asset_id)).status, 'Active', 'the review reached its verdict');
    const done = (await request(`${gw.url}/v1/3d/generations/${task.task_id}`, 'GET', { token: gw.token })).body;
    assert.equal(done.status, 'SUCCESS');
    assert.equal((await client().responses.retrieve(background.id)).status, 'completed');
    assert.ok((await failure(expiringClient.models.list())) instanceof OpenAI.PermissionDeniedError, 'the token expired');
    // The scan's timer counted real time; the advance ran it at once: the asset no call asked about has its verdict in
    // the list (which is refreshed only by a query of that asset, or by the scan).
    await eventually(async () => {
      const listed = dataOf(await portrait.listAssets(`?group_id=${group.group_id}&page_size=100`)).items;
      return listed.find((item: { asset_id: string }) => item.asset_id === scanned.asset_id)?.status === 'Active';
    }, 'the background scan after the advance');
    // A batch moves a step per runner tick, each step as far as the advanced clock allows: no further advance needed.
    const completed = await eventually(async () => {
      const now = await client().batches.retrieve(batch.id);
      return now.status === 'completed' ? now : undefined;
    }, 'the batch completing after the advance');
    assert.equal(completed.request_counts?.completed, 1);
  });
});

// Integration tests of batches against a hanging upstream, through the official openai SDK: one account's stuck line holds no other account's batch, cancel always ends, and a restart reruns only the lines that never answered (each charged once).
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { manualClock, type ManualClock } from '../helpers/clock.ts';
import { startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { usageRows } from '../helpers/relay.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

/** Generous bound on waiting for something the gateway does on its own (a request reaching the upstream, a charge written). */
const BOUND_MS = 15_000;
/** Long limits: the hanging upstream is never cut during a test, so only the batch runner can let other work through. */
const PATIENT = { timeoutMs: 600_000, idleTimeoutMs: 600_000, deadlineMs: 600_000 };

const jsonl = (lines: readonly unknown[]) => lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
const line = (id: string, model: string, content: string) => ({
  custom_id: id,
  method: 'POST',
  url: '/v1/chat/completions',
  body: { model, messages: [{ role: 'user', content }], max_tokens: 20 },
});

/** An OpenAI chat answer of the upstream, with its usage. */
const answer = (content: string) => JSON.stringify(chatCompletion('gpt-relay', content, { tokens: [7, 3] }));

/** Moves the clock a quarter second at a time (at most `steps` times) until the batch reaches `status`. */
async function runUntil(client: OpenAI, clock: ManualClock, id: string, status: string, steps = 400) {
  const seen = [(await client.batches.retrieve(id)).status as string];
  for (let step = 0; step < steps; step++) {
    clock.advance(250);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const batch = await client.batches.retrieve(id);
    if (seen.at(-1) !== batch.status) seen.push(batch.status);
    if (batch.status === status) return batch;
  }
  throw new Error(`batch ${id} never reached ${status}: ${seen.join(' → ')}`);
}

/** Polls `check` every 20 ms until it holds, failing after BOUND_MS with `what`. */
async function until(what: string, check: () => boolean): Promise<void> {
  const end = Date.now() + BOUND_MS;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not after ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function batchOf(client: OpenAI, lines: readonly unknown[]) {
  const file = await client.files.create({ file: await toFile(Buffer.from(jsonl(lines)), 'input.jsonl'), purpose: 'batch' });
  return client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
}

/** The upstream user text of a received chat request. */
const contentOf = (body: Buffer) => (JSON.parse(body.toString('utf8')) as { messages: { content: string }[] }).messages[0]!.content;

describe('batches against a hanging upstream', () => {
  const upstreams: HostileUpstream[] = [];
  const gateways: TestGateway[] = [];
  after(async () => {
    for (const gw of gateways) await gw.stop();
    for (const up of upstreams) await up.close();
  });
  const channelTo = (up: HostileUpstream): TestChannel => ({
    name: 'upstream',
    kind: 'openai',
    baseUrl: `${up.url}/v1`,
    key: 'sk-upstream-key',
    models: ['gpt-relay'],
    ...PATIENT,
  });
  /** A gateway on a manual clock whose one channel goes to a new upstream that holds every request (never answers); `client` is its owner's. */
  const hangingGateway = async () => {
    const held: ServerResponse[] = [];
    const up = await hostileUpstream((_, response) => void held.push(response));
    upstreams.push(up);
    const clock = manualClock();
    const gw = await startGateway({ clock, channels: memoryChannels([channelTo(up)]) });
    gateways.push(gw);
    return { held, clock, gw, client: new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 }) };
  };

  test("account A's line hangs on its upstream while account B's batch completes; cancelling A's batch ends it and closes the upstream call", async () => {
    const { held, clock, gw, client: a } = await hangingGateway();
    const other = gw.gateway.context.tokens.create({ account: 'batch-b', name: 'b' });
    const b = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: other.secret, maxRetries: 0 });

    const stuck = await batchOf(a, [line('a-0', 'gpt-relay', 'hang'), line('a-1', 'gpt-relay', 'hang too')]);
    await runUntil(a, clock, stuck.id, 'in_progress');
    clock.advance(1000);
    await until('the stuck lines reached the upstream', () => held.length === 2);

    const moving = await batchOf(
      b,
      Array.from({ length: 5 }, (_, index) => line(`b-${index}`, 'sim-chat', `question ${index}`)),
    );
    const done = await runUntil(b, clock, moving.id, 'completed');
    assert.deepEqual(done.request_counts, { total: 5, completed: 5, failed: 0 });
    assert.equal((await a.batches.retrieve(stuck.id)).status, 'in_progress', "A's lines are still waiting on their upstream");

    const closed = held.map((response) => new Promise<void>((resolve) => response.socket!.once('close', () => resolve())));
    assert.equal((await a.batches.cancel(stuck.id)).status, 'cancelling');
    const cancelled = await runUntil(a, clock, stuck.id, 'cancelled');
    assert.deepEqual(cancelled.request_counts, { total: 2, completed: 0, failed: 0 }, 'the cut lines never answered: left out');
    assert.equal(cancelled.output_file_id, null);
    await Promise.race([
      Promise.all(closed),
      new Promise((_, reject) => setTimeout(() => reject(new Error('the upstream calls were not closed')), BOUND_MS)),
    ]);
  });

  test("an account with more running batches than one step looks at never pushes another account's batch out", async () => {
    const { clock, gw, client: a } = await hangingGateway();
    const file = await a.files.create({
      file: await toFile(Buffer.from(jsonl([line('a', 'gpt-relay', 'hang')])), 'input.jsonl'),
      purpose: 'batch',
    });
    // More of A's batches than the 16 one step looks at, all created before B's.
    for (let index = 0; index < 20; index++)
      await a.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const other = gw.gateway.context.tokens.create({ account: 'batch-crowded-b', name: 'b' });
    const b = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: other.secret, maxRetries: 0 });
    const moving = await batchOf(b, [line('b-0', 'sim-chat', 'question')]);
    const done = await runUntil(b, clock, moving.id, 'completed');
    assert.deepEqual(done.request_counts, { total: 1, completed: 1, failed: 0 });
  });

  test('cancelling a batch whose only line hangs on its upstream ends it cancelled (no other batch running)', async () => {
    const { held, clock, client } = await hangingGateway();
    const stuck = await batchOf(client, [line('only', 'gpt-relay', 'hang')]);
    await runUntil(client, clock, stuck.id, 'in_progress');
    clock.advance(1000);
    await until('the line reached the upstream', () => held.length === 1);
    await client.batches.cancel(stuck.id);
    const cancelled = await runUntil(client, clock, stuck.id, 'cancelled');
    assert.equal(typeof cancelled.cancelled_at, 'number');
    assert.deepEqual(cancelled.request_counts, { total: 1, completed: 0, failed: 0 });
  });

  test('a restart reruns only the line that was in flight: a line that answered before the stop is kept, and each is charged once', async () => {
    const up = await hostileUpstream();
    upstreams.push(up);
    let hangSecond = true;
    up.handle((request, response) => {
      const content = contentOf(request.body);
      if (content === 'second' && hangSecond) return; // in flight until the gateway stops
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer(`answer to ${content}`));
    });
    const clock = manualClock();
    const dataDir = tempDataDir();
    const channels = memoryChannels([channelTo(up)]);
    let gw = await startGateway({ clock, dataDir, channels });
    const token = gw.token;
    let client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: token, maxRetries: 0 });
    const created = await batchOf(client, [line('first', 'gpt-relay', 'first'), line('second', 'gpt-relay', 'second')]);
    await runUntil(client, clock, created.id, 'in_progress');
    clock.advance(1000);
    const received = (content: string) => up.requests.filter((request) => contentOf(request.body) === content).length;
    await until('both lines reached the upstream', () => received('first') === 1 && received('second') === 1);
    const current = gw;
    await until('the first line was charged', () => usageRows(current).some((row) => row.model === 'gpt-relay'));

    await gw.stop({ keepData: true });
    hangSecond = false;
    gw = await startGateway({ clock, dataDir, channels });
    gateways.push(gw);
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: token, maxRetries: 0 });
    const batch = await runUntil(client, clock, created.id, 'completed');
    assert.deepEqual(batch.request_counts, { total: 2, completed: 2, failed: 0 });
    assert.equal(received('first'), 1, 'the line that answered before the stop is not sent again');
    assert.equal(received('second'), 2, 'the line in flight at the stop never answered: it runs again');
    const output = (await (await client.files.content(batch.output_file_id!)).text()).trim().split('\n');
    assert.deepEqual(output.map((text) => (JSON.parse(text) as { custom_id: string }).custom_id).sort(), ['first', 'second']);
    const restarted = gw;
    await until('the second line was charged', () => usageRows(restarted).filter((row) => row.model === 'gpt-relay').length >= 2);
    assert.equal(usageRows(gw).filter((row) => row.model === 'gpt-relay').length, 2, 'each line charged once');
  });
});

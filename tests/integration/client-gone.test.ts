// Integration tests of a client that leaves before its call is handled (during x-gatehouse-latency-ms, or while its body is read): no upstream is called, nothing is charged, the journal says 499 (but not for a connection the gateway cuts itself), and stopping does not wait for it.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { journalEntries, usageRows } from '../helpers/relay.ts';

const LATENCY_MS = 2000;
/** Past the latency with room to spare: had the call gone on, its upstream request or its charge would be there by then. */
const PAST_THE_LATENCY_MS = LATENCY_MS + 1500;
/** Below the gateway's 10 s graceful stop, with room for a busy machine: a handler left waiting would hold the stop that long. */
const PROMPT_STOP_MS = 8000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` is true, polling every 10 ms (no bound of its own: the test's timeout is the bound). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(10);
}

/**
 * Sends a chat request over a raw socket, waits until the gateway has authenticated it (so it is inside the gateway,
 * before its handler), then leaves. `bodyBytes` shorter than the body sends only that much of it.
 */
async function sendThenLeave(gw: TestGateway, headers: Record<string, string>, options: { bodyBytes?: number } = {}): Promise<void> {
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }] });
  const { port } = new URL(gw.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = [
    'POST /v1/chat/completions HTTP/1.1',
    `host: 127.0.0.1:${port}`,
    `authorization: Bearer ${gw.token}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  socket.write(`${head}\r\n\r\n${body.slice(0, options.bodyBytes ?? body.length)}`);
  await until(() => gw.gateway.connections().unauthenticated === 0);
  socket.destroy();
  await until(() => gw.gateway.connections().open === 0);
}

/** Stops `gw`, returning how long it took. */
async function timedStop(gw: TestGateway): Promise<number> {
  const started = performance.now();
  await gw.stop({ keepData: true });
  return performance.now() - started;
}

describe('a client that leaves during x-gatehouse-latency-ms', () => {
  let upstream: HostileUpstream;
  after(() => upstream?.close());

  test('through relay: the upstream never hears of the call, nothing is charged, the journal says 499, stop is prompt', async () => {
    // An upstream that would hold any call it got forever.
    upstream = await hostileUpstream(() => undefined);
    const gw = await gatewayBefore(upstream, 'openai');
    await sendThenLeave(gw, { 'x-gatehouse-latency-ms': String(LATENCY_MS) });
    await sleep(PAST_THE_LATENCY_MS);
    assert.deepEqual(upstream.requests, [], 'the relay upstream was called after the client left');
    gw.gateway.context.journal.flush();
    const entries = await journalEntries(gw, { path: '/v1/chat/completions' });
    assert.equal(entries.length, 1);
    assert.equal(entries[0].status, 499);
    assert.match(entries[0].error, /client closed/i);
    assert.deepEqual(usageRows(gw), [], 'a usage row was written');
    assert.ok((await timedStop(gw)) < PROMPT_STOP_MS, 'stop waited for a call whose client had left');
  });

  test('simulated: no charge, the journal says 499, stop is prompt', async () => {
    const gw = await startGateway();
    await sendThenLeave(gw, { 'x-gatehouse-latency-ms': String(LATENCY_MS) });
    await sleep(PAST_THE_LATENCY_MS);
    gw.gateway.context.journal.flush();
    const [entry] = await journalEntries(gw, { path: '/v1/chat/completions' });
    assert.equal(entry.status, 499);
    assert.deepEqual(usageRows(gw), [], 'the simulated call was charged');
    assert.ok((await timedStop(gw)) < PROMPT_STOP_MS, 'stop waited for a call whose client had left');
  });
});

describe('a client that leaves while its body is read', () => {
  test('is journaled as 499 and charged nothing', async () => {
    const gw = await startGateway();
    try {
      await sendThenLeave(gw, {}, { bodyBytes: 10 });
      gw.gateway.context.journal.flush();
      const [entry] = await journalEntries(gw, { path: '/v1/chat/completions' });
      assert.equal(entry.status, 499);
      assert.deepEqual(usageRows(gw), []);
    } finally {
      await gw.stop();
    }
  });
});

describe('a connection the gateway cuts itself', () => {
  test('x-gatehouse-fault: disconnect is not journaled as the client leaving', async () => {
    const gw = await startGateway();
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
      const cut = await client.chat.completions
        .create(
          { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] },
          { headers: { 'x-gatehouse-fault': 'disconnect' } },
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.ok(cut instanceof OpenAI.APIConnectionError);
      await until(() => gw.gateway.connections().open === 0);
      gw.gateway.context.journal.flush();
      const [entry] = await journalEntries(gw, { path: '/v1/chat/completions' });
      assert.notEqual(entry.status, 499);
      assert.doesNotMatch(entry.error ?? '', /client closed/i);
    } finally {
      await gw.stop();
    }
  });
});

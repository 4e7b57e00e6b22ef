// Integration tests of connection limits: body and header timeouts, unauthenticated connections per peer, streams and sockets not cut, bounded shutdown.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { CONNECTION_LIMITS } from '../../electron/gateway/server/connection-guard.ts';
import { rmSync } from 'node:fs';
import { firstTokenOf, privateServeArgs, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';
import { openRaw } from '../helpers/realtime.ts';
import { eventually } from '../helpers/eventually.ts';
import { trickle, type Trickler } from '../helpers/trickle.ts';

const SHORT = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 1_500,
  keepAliveTimeoutMs: 500,
  maxUnauthenticatedPerPeer: 16,
  unauthenticatedGraceMs: 300,
  shutdownGraceMs: 2_000,
};

/** /healthz from a fresh connection; resolves with the status (or throws when unanswered). */
async function health(url: string): Promise<number> {
  const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
  await response.arrayBuffer();
  return response.status;
}

describe('connection limits', () => {
  let server: TestGateway;
  before(async () => {
    server = await startGateway({ connectionLimits: SHORT });
  });
  after(() => server.stop());

  test('a client with no token trickling its body is dropped after the request timeout (408), and the server answers meanwhile', async () => {
    const client = await trickle(server.url, { everyMs: 100 });
    try {
      assert.equal(await health(server.url), 200);
      await Promise.race([client.closed, sleep(SHORT.requestTimeoutMs + 8_000)]);
      assert.equal(client.isClosed(), true, 'the trickling connection was closed by the server');
    } finally {
      client.stop();
    }
  });

  test('a client that never finishes its headers is dropped after the headers timeout', async () => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    try {
      const outcome = await Promise.race([closed.then(() => 'closed'), sleep(SHORT.headersTimeoutMs + 8_000).then(() => 'open')]);
      assert.equal(outcome, 'closed');
    } finally {
      clearInterval(timer);
      socket.destroy();
    }
  });

  test('200 trickling unauthenticated connections from one peer: at most the per-peer cap stay open and /healthz keeps answering', async () => {
    const clients: Trickler[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        clients.push(await trickle(server.url, { everyMs: 250 }));
        if (i % 40 === 39) assert.equal(await health(server.url), 200, `/healthz answered with ${i + 1} tricklers`);
      }
      // Connections younger than the grace time are spared; past it, the cap holds.
      await sleep(SHORT.unauthenticatedGraceMs + 400);
      // One I/O turn: on a busy machine the sleep can end in the same turn as the gateway's closes, before the
      // clients have seen them (still within the request timeout, which would close them all anyway).
      await new Promise((resolve) => setImmediate(resolve));
      const open = clients.filter((client) => !client.isClosed()).length;
      assert.ok(
        open <= SHORT.maxUnauthenticatedPerPeer,
        `${open} trickling connections still open, cap ${SHORT.maxUnauthenticatedPerPeer}`,
      );
      assert.ok(server.gateway.connections().unauthenticated <= SHORT.maxUnauthenticatedPerPeer + 1);
      for (let i = 0; i < 5; i++) assert.equal(await health(server.url), 200);
    } finally {
      for (const client of clients) client.stop();
    }
  });

  test('an authenticated client keeps its connections beyond the unauthenticated cap', async () => {
    // A request timeout far off: every trickling body here is cut at the request timeout whatever its token, and opening
    // twice the cap on a busy machine may take longer than the short one.
    const roomy = await startGateway({ connectionLimits: { ...SHORT, requestTimeoutMs: 120_000 } });
    const agents: Trickler[] = [];
    try {
      for (let index = 0; index < SHORT.maxUnauthenticatedPerPeer * 2; index++)
        agents.push(await trickle(roomy.url, { token: roomy.token, path: '/v1/embeddings', everyMs: 100 }));
      // Past the grace an unauthenticated connection gets, with every one of them open at once.
      await sleep(SHORT.unauthenticatedGraceMs * 2);
      // A turn for what an eviction would have done to the sockets.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(agents.filter((client) => client.isClosed()).length, 0, 'no connection with a valid token was evicted');
      assert.equal(roomy.gateway.connections().unauthenticated, 0, 'every one of them counts as authenticated');
    } finally {
      for (const client of agents) client.stop();
      await roomy.stop();
    }
  });

  test('a realtime WebSocket outlives the request and keep-alive timeouts', async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`;
    const client = await openRaw(wsUrl, { headers: { authorization: `Bearer ${server.token}` } });
    try {
      await client.next('session.created');
      await sleep(SHORT.requestTimeoutMs + SHORT.keepAliveTimeoutMs + 1_500);
      client.send({ type: 'session.update', session: { type: 'realtime', instructions: 'still here?' } });
      await client.next('session.updated');
    } finally {
      client.socket.close();
    }
  });

  test('a long answer is not cut by the request timeout: the request is whole, only the response takes time', async () => {
    const controller = new AbortController();
    const answer = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', 'x-gatehouse-fault': 'timeout' },
      body: JSON.stringify({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
      signal: controller.signal,
    }).then(
      (response) => `answered ${response.status}`,
      (error: Error) => (error.name === 'AbortError' ? 'still waiting' : `failed: ${error.message}`),
    );
    await sleep(SHORT.requestTimeoutMs + SHORT.keepAliveTimeoutMs + 1_500);
    controller.abort();
    assert.equal(await answer, 'still waiting');
  });
});

describe('stopping with a long grace time', () => {
  test(
    'a connection whose call was answered (a refused call still trickling its body) closes at once; one in flight waits for it',
    { timeout: 60_000 },
    async () => {
      const gw = await startGateway({ connectionLimits: { ...SHORT, requestTimeoutMs: 300_000, shutdownGraceMs: 600_000 } });
      const refused = await trickle(gw.url, { token: 'sk-gh-not-a-token', everyMs: 50 });
      const inFlight = await trickle(gw.url, { token: gw.token, everyMs: 50 });
      try {
        // The refusal is answered before its body is read; the valid token's call waits for its body.
        await eventually(() => refused.received().includes(' 401 '), 'the refusal');
        const stopping = gw.stop();
        await refused.closed;
        assert.equal(inFlight.isClosed(), false, 'the call in flight is given its grace time');
        inFlight.stop();
        await stopping;
      } finally {
        refused.stop();
        inFlight.stop();
        await gw.stop();
      }
    },
  );
});

describe('graceful shutdown of gatehouse serve', () => {
  test(`SIGTERM while clients trickle (one with no token, one with a valid token) exits 0 within the ${CONNECTION_LIMITS.shutdownGraceMs / 1000} s grace time`, async () => {
    const dataDir = tempDataDir();
    const server = await serveCli(privateServeArgs(dataDir));
    const token = firstTokenOf(server);
    const stranger = await trickle(server.url, { everyMs: 100 });
    const holder = await trickle(server.url, { token, path: '/v1/embeddings', everyMs: 100 });
    try {
      await sleep(300);
      const started = Date.now();
      const code = await Promise.race([
        server.stop('SIGTERM'),
        sleep(CONNECTION_LIMITS.shutdownGraceMs + 15_000).then(() => 'still running'),
      ]);
      assert.equal(code, 0, server.stderr());
      assert.ok(Date.now() - started < CONNECTION_LIMITS.shutdownGraceMs + 15_000);
      assert.equal(stranger.isClosed() && holder.isClosed(), true);
    } finally {
      stranger.stop();
      holder.stop();
      await server.stop('SIGKILL');
    }
  });
});

describe('connection limits with the defaults', () => {
  // A real `gatehouse serve` in its own process: in one process, client and server would take turns and never burst.
  let server: ServeProcess;
  let token: string;
  const dataDir = tempDataDir();
  before(async () => {
    server = await serveCli(privateServeArgs(dataDir));
    token = firstTokenOf(server);
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [label, call] of [
    [
      'fetch',
      (i: number) => fetch(`${server.url}/v1/models?i=${i}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status),
    ],
    [
      'the openai SDK',
      (i: number) =>
        new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 }).embeddings
          .create({ model: 'sim-embed', input: `burst ${i}` })
          .then(() => 200),
    ],
  ] as const) {
    test(`a burst of ${CONNECTION_LIMITS.maxUnauthenticatedPerPeer * 2 + 40} parallel calls with ${label} (a new connection each) all succeed: none is evicted before its first request authenticates it`, async () => {
      const outcomes = await Promise.all(
        Array.from({ length: CONNECTION_LIMITS.maxUnauthenticatedPerPeer * 2 + 40 }, (_, i) =>
          call(i).catch((error: unknown) => String(error)),
        ),
      );
      const failed = outcomes.filter((outcome) => outcome !== 200);
      assert.deepEqual(failed.slice(0, 3), [], `${failed.length} of ${outcomes.length} calls failed`);
    });
  }
});

// Integration tests of realtime relay: the openai SDK's realtime client on a front gateway, relayed over WebSocket to an upstream Gatehouse (simulate mode) or a recording ws server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { deadPort } from '../helpers/ports.ts';
import { inOrder, openRaw, sdkLog } from '../helpers/realtime.ts';
import { journalEntries, settle, usageRows } from '../helpers/relay.ts';

/** What the recording upstream saw of one session: its handshake, its frames (with their type) and how it closed. */
interface SeenSession {
  headers: IncomingHttpHeaders;
  url: string;
  frames: { text: string; binary: boolean }[];
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
}

/**
 * A tiny realtime upstream that records each handshake and session. `/v1/realtime` accepts (choosing the first offered
 * subprotocol), sends `session.created`, echoes every frame with its type kept; `/refuse-<status>/v1/realtime` answers the upgrade with that status.
 */
async function recordingUpstream() {
  const sessions: SeenSession[] = [];
  const waiting: ((session: SeenSession) => void)[] = [];
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false });
  const server: Server = createServer();
  server.on('upgrade', (request, socket: Duplex, head) => {
    const refused = /^\/refuse-(\d+)\//.exec(request.url ?? '');
    if (refused) {
      const body = JSON.stringify({ error: { message: `refused with ${refused[1]}`, type: 'test' } });
      socket.end(`HTTP/1.1 ${refused[1]} Refused\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const session: SeenSession = {
        headers: request.headers,
        url: request.url ?? '',
        frames: [],
        socket: ws,
        closed: new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }))),
      };
      ws.on('message', (data: Buffer, binary) => {
        session.frames.push({ text: data.toString('utf8'), binary });
        ws.send(data, { binary });
      });
      ws.send(
        JSON.stringify({
          type: 'session.created',
          event_id: 'e1',
          session: { model: new URL(session.url, 'ws://x').searchParams.get('model') },
        }),
      );
      sessions.push(session);
      waiting.shift()?.(session);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    /** The next session to open (or the last one, when it already did). */
    nextSession: (seen: number) =>
      sessions.length > seen ? Promise.resolve(sessions[seen]!) : new Promise<SeenSession>((resolve) => waiting.push(resolve)),
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('realtime relay to OpenAI channels', { timeout: 60_000 }, () => {
  let up: TestGateway;
  let front: TestGateway;
  let recorder: Awaited<ReturnType<typeof recordingUpstream>>;
  let dead: number;
  let ca: string;
  let tlsUrl: string;
  const channels: TestChannel[] = [];
  const directory = memoryChannels(channels);
  const use = (...list: TestChannel[]) => channels.splice(0, channels.length, ...list);
  const upChannel = (extra: Partial<TestChannel> = {}): TestChannel => ({
    name: 'gatehouse-up',
    kind: 'openai',
    baseUrl: `${up.url}/v1`,
    key: up.token,
    models: ['my-rt=sim-realtime', 'sim-echo'],
    ...extra,
  });
  const recorderChannel = (extra: Partial<TestChannel> = {}): TestChannel => ({
    name: 'recorder',
    kind: 'openai',
    baseUrl: `${recorder.url}/v1`,
    key: 'sk-channel-key-1234',
    models: ['rec-model=rec-upstream'],
    ...extra,
  });
  const wsUrl = (model: string) => `${front.url.replace('http', 'ws')}/v1/realtime?model=${model}`;

  before(async () => {
    up = await startGateway();
    front = await startGateway({ channels: directory, tlsPort: 0 });
    recorder = await recordingUpstream();
    dead = await deadPort();
    tlsUrl = front.gateway.context.runtime.tlsUrl!;
    ca = readFileSync(`${front.dataDir}/tls/ca.pem`, 'utf8');
  });
  after(async () => {
    await front.stop();
    await up.stop();
    await recorder.stop();
  });
  beforeEach(() => {
    use(upChannel());
    directory.attempts.length = 0;
  });

  /** The SDK's realtime client on the front's TLS port. */
  const connect = (model: string) => {
    const client = new OpenAI({ apiKey: front.token, baseURL: `${tlsUrl}/v1` });
    const rt = new OpenAIRealtimeWS({ model, options: { ca } }, client);
    return { rt, log: sdkLog(rt) };
  };

  test('an SDK session is relayed: text in and out, the renamed model named back, each response billed by the upstream usage', async () => {
    const before = usageRows(front).length;
    const { rt, log } = connect('my-rt');
    const created = await log.next('session.created');
    assert.equal(created.session.model, 'my-rt', "the caller's name, renamed back from the channel's sim-realtime");
    rt.send({ type: 'session.update', session: { type: 'realtime', model: 'my-rt', output_modalities: ['text'] } });
    const updated = await log.next('session.updated');
    assert.equal(updated.session.model, 'my-rt');
    assert.deepEqual(updated.session.output_modalities, ['text']);
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me about lighthouses.' }] },
    });
    rt.send({ type: 'response.create' });
    const done = await log.next('response.done');
    rt.close();
    const order = [
      'session.created',
      'session.updated',
      'conversation.item.added',
      'response.created',
      'response.output_text.delta',
      'response.done',
    ];
    assert.equal(inOrder(log.types(), order), undefined);
    const text = log.events
      .filter((event) => event.type === 'response.output_text.delta')
      .map((event) => event.delta)
      .join('');
    assert.match(text.toLowerCase(), /lighthouses/);
    assert.deepEqual(log.errors, []);
    const { usage } = done.response;
    assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0);
    assert.deepEqual(usageRows(front).slice(before), [
      { model: 'my-rt', endpoint: '/v1/realtime', input_tokens: usage.input_tokens, output_tokens: usage.output_tokens },
    ]);
    assert.deepEqual(
      directory.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [['gatehouse-up', true]],
    );
  });

  test('a spoken answer arrives as relayed audio deltas with its transcript', async () => {
    const { rt, log } = connect('sim-echo');
    const created = await log.next('session.created');
    assert.equal(created.session.model, 'sim-echo', 'a model the channel does not rename passes as it is');
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'say something' }] },
    });
    rt.send({ type: 'response.create' });
    const done = await log.next('response.done');
    rt.close();
    const audio = log.events.filter((event) => event.type === 'response.output_audio.delta');
    assert.ok(audio.length > 0, log.types().join());
    assert.ok(Buffer.from(audio[0]!.delta, 'base64').length > 0);
    assert.ok(log.types().includes('response.output_audio_transcript.delta'));
    assert.ok(done.response.usage.output_token_details.audio_tokens > 0);
  });

  test('failover: a dead port and a 503 on the upgrade are passed over for the live channel', async () => {
    use(
      upChannel({ name: 'dead', baseUrl: `http://127.0.0.1:${dead}/v1`, priority: 3 }),
      recorderChannel({ name: 'busy', baseUrl: `${recorder.url}/refuse-503/v1`, models: ['my-rt=sim-realtime'], priority: 2 }),
      upChannel({ priority: 1 }),
    );
    const { rt, log } = connect('my-rt');
    const created = await log.next('session.created');
    rt.close();
    assert.equal(created.session.model, 'my-rt');
    assert.deepEqual(
      directory.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [
        ['dead', false],
        ['busy', false],
        ['gatehouse-up', true],
      ],
    );
    // Once the session ended, the front's journal has an entry for it, with every try.
    const failedOver = (entries: any[]) => entries.find((candidate) => candidate.relay?.attempts.length === 3);
    let entry = failedOver(await journalEntries(front, { path: '/v1/realtime' }));
    for (let tries = 0; !entry && tries < 100; tries++) {
      await settle();
      entry = failedOver(await journalEntries(front, { path: '/v1/realtime' }));
    }
    assert.equal(entry.status, 101);
    assert.equal(entry.model, 'my-rt');
    assert.equal(entry.relay.channel, 'gatehouse-up');
    assert.equal(entry.relay.upstreamModel, 'sim-realtime');
    assert.deepEqual(
      entry.relay.attempts.map((attempt: { channel: string; status: number | null }) => [attempt.channel, attempt.status]),
      [
        ['dead', null],
        ['busy', 503],
        ['gatehouse-up', 101],
      ],
    );
    assert.match(entry.relay.attempts[0].error, /connection failed/);
    assert.ok(!JSON.stringify(entry).includes(up.token), 'no key in the journal');
  });

  test('an upgrade refused with a status that is not retryable ends the search: the client gets an error event naming it', async () => {
    use(recorderChannel({ baseUrl: `${recorder.url}/refuse-404/v1`, priority: 1 }), upChannel({ models: ['rec-model=sim-realtime'] }));
    const socket = await openRaw(wsUrl('rec-model'), { headers: { authorization: `Bearer ${front.token}` } });
    const error = await socket.next('error');
    assert.equal(error.error.type, 'invalid_request_error');
    assert.match(error.error.message, /HTTP 404.*refused with 404/);
    assert.equal((await socket.closing).code, 3000);
    assert.deepEqual(
      directory.attempts.map((attempt) => attempt.channel),
      ['recorder'],
    );
  });

  test("the channel's key and the client's protocol headers reach the upstream; the client's token and credential subprotocol do not", async () => {
    use(recorderChannel({ headers: { 'X-Tenant': 'acme' } }));
    const seen = recorder.sessions.length;
    const socket = await openRaw(wsUrl('rec-model'), {
      protocols: ['realtime', `openai-insecure-api-key.${front.token}`, 'openai-beta.realtime-v1'],
      headers: { 'openai-beta': 'realtime=v1' },
    });
    const session = await recorder.nextSession(seen);
    const created = await socket.next('session.created');
    assert.equal(created.session.model, 'rec-model', 'renamed back from rec-upstream');
    assert.equal(session.headers['authorization'], 'Bearer sk-channel-key-1234');
    assert.deepEqual(
      session.headers['sec-websocket-protocol']?.split(',').map((item) => item.trim()),
      ['realtime', 'openai-beta.realtime-v1'],
    );
    assert.equal(session.headers['openai-beta'], 'realtime=v1');
    assert.equal(session.headers['x-tenant'], 'acme');
    assert.equal(new URL(session.url, 'ws://x').pathname, '/v1/realtime');
    assert.equal(new URL(session.url, 'ws://x').searchParams.get('model'), 'rec-upstream');
    assert.ok(!JSON.stringify(session.headers).includes(front.token), "the client's token never goes upstream");

    // Frames keep their type both ways: text stays text, binary stays binary (the recorder echoes each as it came).
    const binaryEcho = new Promise<{ data: Buffer; binary: boolean }>((resolve) =>
      socket.socket.on('message', (data: Buffer, binary) => binary && resolve({ data, binary })),
    );
    socket.socket.send(Buffer.from([0, 1, 2, 250]), { binary: true });
    socket.send({ type: 'session.update', session: { model: 'rec-model', instructions: 'hi' } });
    const echoed = await binaryEcho;
    assert.deepEqual([...echoed.data], [0, 1, 2, 250]);
    const update = await socket.next('session.update');
    assert.equal(update.session.instructions, 'hi');
    assert.deepEqual(
      session.frames.map((frame) => frame.binary),
      [true, false],
    );
    assert.equal(JSON.parse(session.frames[1]!.text).session.model, 'rec-upstream', "the caller's model name goes up as the channel's");
    socket.socket.close(1000, 'bye');
    await socket.closing;
  });

  test('a client that leaves closes the upstream session; an upstream that closes closes the client with its code', async () => {
    use(recorderChannel());
    let seen = recorder.sessions.length;
    const leaving = await openRaw(wsUrl('rec-model'), { headers: { authorization: `Bearer ${front.token}` } });
    const session = await recorder.nextSession(seen);
    await leaving.next('session.created');
    leaving.socket.close(4001, 'done here');
    assert.deepEqual(await session.closed, { code: 4001, reason: 'done here' }, 'the upstream saw the client close, with its code');

    seen = recorder.sessions.length;
    const staying = await openRaw(wsUrl('rec-model'), { headers: { authorization: `Bearer ${front.token}` } });
    const closedUp = await recorder.nextSession(seen);
    await staying.next('session.created');
    closedUp.socket.close(4002, 'upstream says bye');
    assert.deepEqual(await staying.closing, { code: 4002, reason: 'upstream says bye' });

    seen = recorder.sessions.length;
    const cut = await openRaw(wsUrl('rec-model'), { headers: { authorization: `Bearer ${front.token}` } });
    const broken = await recorder.nextSession(seen);
    await cut.next('session.created');
    broken.socket.terminate();
    const { code } = await cut.closing;
    assert.equal(code, 1014, 'an upstream lost without a close is a bad gateway');
  });

  test('a response cut off by the client leaving is billed for the text it delivered', async () => {
    // The channel's extra header slows the upstream's answer (a simulated Gatehouse paces it), so the client leaves mid-response.
    use(upChannel({ headers: { 'x-gatehouse-pace': '20' } }));
    const before = usageRows(front).length;
    const client = await openRaw(wsUrl('my-rt'), { headers: { authorization: `Bearer ${front.token}` } });
    await client.next('session.created');
    client.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await client.next('session.updated');
    const ask = 'Tell me a long story about lighthouses and the sea.';
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: ask }] },
    });
    client.send({ type: 'response.create' });
    await client.next('response.output_text.delta');
    await client.next('response.output_text.delta');
    client.socket.close();
    await client.closing;
    let rows = usageRows(front).slice(before);
    for (let tries = 0; rows.length === 0 && tries < 100; tries++) {
      await settle();
      rows = usageRows(front).slice(before);
    }
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.equal(rows[0]!.model, 'my-rt');
    assert.ok(rows[0]!.output_tokens >= 2, 'at least the two deltas the client saw');
    assert.ok(!client.types().includes('response.done'));
  });

  test('a token out of quota is told so when it asks a relayed response (which never goes upstream), and the socket stays open', async () => {
    // 1000 µ: a response of at most 20 tokens fits; what is left cannot hold one without a limit (16384 tokens).
    const { secret } = front.gateway.context.tokens.create({ account: 'rt-relay-quota', name: 'tiny', quota: 0.001 });
    const client = await openRaw(wsUrl('my-rt'), { headers: { authorization: `Bearer ${secret}` } });
    await client.next('session.created');
    client.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await client.next('session.updated');
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'spend' }] },
    });
    client.send({ type: 'response.create', response: { max_output_tokens: 20 } });
    await client.next('response.done');
    client.send({ type: 'response.create', event_id: 'evt_broke' });
    const refused = await client.next((event) => event.type === 'error' || event.type === 'response.created');
    assert.equal(refused.type, 'error', 'no second response started upstream');
    assert.equal(refused.error.event_id, 'evt_broke');
    assert.equal(refused.error.code, 'permission_denied');
    assert.match(refused.error.message, /quota/);
    client.send({ type: 'session.update', session: { type: 'realtime', instructions: 'still here' } });
    const updated = await client.next('session.updated');
    assert.equal(updated.session.instructions, 'still here');
    client.socket.close();
    await client.closing;
  });

  test('a client that does not read slows the upstream instead of filling the gateway, then gets every frame in order', async () => {
    use(recorderChannel());
    const seen = recorder.sessions.length;
    const client = await openRaw(wsUrl('rec-model'), { headers: { authorization: `Bearer ${front.token}` } });
    const session = await recorder.nextSession(seen);
    await client.next('session.created');
    const received: number[] = [];
    client.socket.on('message', (data: Buffer, binary) => binary && received.push(data.readUInt32BE(0)));
    client.socket.pause();
    const frames = 192; // 48 MiB: far more than the gateway's 4 MiB high-water mark and the sockets' buffers
    for (let index = 0; index < frames; index++) {
      const frame = Buffer.alloc(256 * 1024);
      frame.writeUInt32BE(index, 0);
      session.socket.send(frame, { binary: true });
    }
    // The gateway stops reading the upstream: part of the flood stays queued at the upstream, unread, while the client reads
    // nothing (without backpressure the gateway would read it all into memory and the upstream's queue would empty).
    let queued = session.socket.bufferedAmount;
    for (let still = 0; still < 5 && queued > 0;) {
      await settle();
      const now = session.socket.bufferedAmount;
      still = now === queued ? still + 1 : 0;
      queued = now;
    }
    assert.ok(queued > 0, 'the upstream still holds frames the gateway did not read');
    assert.equal(received.length, 0);
    client.socket.resume();
    while (received.length < frames) await new Promise((resolve) => client.socket.once('message', resolve));
    assert.deepEqual(
      received,
      Array.from({ length: frames }, (_, index) => index),
    );
    client.socket.close();
    await client.closing;
  });

  test('a model only an anthropic channel serves runs here in text, opening no upstream realtime session', async () => {
    use({ name: 'claude', kind: 'anthropic', baseUrl: up.url, key: up.token, models: ['only-claude'] });
    const seen = recorder.sessions.length;
    const socket = await openRaw(wsUrl('only-claude'), { headers: { authorization: `Bearer ${front.token}` } });
    const created = await socket.next('session.created');
    assert.deepEqual(created.session.output_modalities, ['text']);
    socket.socket.close();
    await socket.closing;
    assert.equal(recorder.sessions.length, seen);
    assert.equal(directory.attempts.length, 0, 'no chat call before a response is asked for');
  });

  test('a client refused by the gateway never reaches a channel', async () => {
    use(recorderChannel());
    const seen = recorder.sessions.length;
    const socket = await openRaw(wsUrl('rec-model'), { headers: { authorization: 'Bearer not-a-token' } });
    const refused = await socket.next('error');
    assert.equal(refused.error.code, 'invalid_api_key');
    await socket.closing;
    assert.equal(recorder.sessions.length, seen);
    assert.equal(directory.attempts.length, 0);
  });
});

describe('realtime with --unrouted reject', () => {
  let front: TestGateway;
  before(async () => {
    front = await startGateway({ channels: memoryChannels([]), unrouted: 'reject' });
  });
  after(() => front.stop());

  test('a model no channel serves is refused at the start of the session, not simulated', async () => {
    const socket = await openRaw(`${front.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${front.token}` },
    });
    const refused = await socket.next((event) => event.type === 'error' || event.type === 'session.created');
    assert.equal(refused.type, 'error');
    assert.equal(refused.error.code, 'model_not_found');
    assert.match(refused.error.message, /sim-realtime/);
    assert.equal((await socket.closing).code, 3000);
  });
});

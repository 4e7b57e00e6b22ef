// An answer's head as a client reads it off the wire: its headers' names, order and values, x-request-id first and x-gatehouse-source second, for every way the gateway writes a head (JSON, stream, relay, errors, faults), journal on and off.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { request as jsonRequest, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { chatAnswers, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

/** Headers Node adds itself after the answer's own (their values change per call). */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One answer's status and its head's headers in wire order, as `name: value` (the request id as `<id>` when it is a new one). */
interface Head {
  status: number;
  lines: string[];
}

/** Sends one request with node:http (whose rawHeaders keep the wire's order) and reads the answer whole. */
function head(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Head> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const sent = http.request(
      url,
      { method, headers: { ...headers, ...(text !== undefined && { 'content-type': 'application/json' }) } },
      (answer) => {
        answer.resume();
        answer.on('end', () => {
          const lines: string[] = [];
          for (let i = 0; i < answer.rawHeaders.length; i += 2) {
            const name = answer.rawHeaders[i]!.toLowerCase();
            let value = answer.rawHeaders[i + 1]!;
            if (name === 'x-request-id' && /^req_[A-Za-z0-9]{20}$/.test(value)) value = '<id>';
            if (name === 'content-length' || name === 'access-control-max-age') value = '<n>';
            lines.push(NODE_OWN.has(name) ? name : `${name}: ${value}`);
          }
          resolve({ status: answer.statusCode!, lines });
        });
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

const CHAT = { model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] };

describe('the head of an answer', () => {
  let upstream: HostileUpstream;
  let gw: TestGateway;
  let quiet: TestGateway;
  const auth = () => ({ authorization: `Bearer ${gw.token}` });
  const post = (path: string, headers: Record<string, string>, body: unknown) => head(`${gw.url}${path}`, 'POST', headers, body);

  before(async () => {
    // The upstream answers with its own request id; `gpt-broken` is refused with a 500.
    upstream = await hostileUpstream(chatAnswers({ 'x-request-id': 'upstream-7', 'x-other': 'dropped' }));
    gw = await startGateway({ corsOrigins: ['https://app.example'] });
    const added = await jsonRequest(`${gw.url}/admin/api/channels`, 'POST', {
      token: gw.gateway.adminToken,
      body: { name: 'real', kind: 'openai', base_url: `${upstream.url}/v1`, models: 'gpt-real,gpt-broken' },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    quiet = await startGateway({ journal: false });
  });
  after(async () => {
    await gw?.stop();
    await quiet?.stop();
    await upstream?.close();
  });

  test('a simulated answer, JSON and stream, journal on and off: the id, the source, then the content headers', async () => {
    const json = [
      'x-request-id: <id>',
      'x-gatehouse-source: simulate',
      'content-type: application/json; charset=utf-8',
      'content-length: <n>',
    ];
    assert.deepEqual(await post('/v1/chat/completions', auth(), CHAT), {
      status: 200,
      lines: [...json, 'date', 'connection', 'keep-alive'],
    });
    const off = await head(`${quiet.url}/v1/chat/completions`, 'POST', { authorization: `Bearer ${quiet.token}` }, CHAT);
    assert.deepEqual(off, { status: 200, lines: [...json, 'date', 'connection', 'keep-alive'] });
    const stream = await post('/v1/chat/completions', { ...auth(), 'x-request-id': 'mine-1' }, { ...CHAT, stream: true });
    assert.deepEqual(stream, {
      status: 200,
      lines: [
        'x-request-id: mine-1',
        'x-gatehouse-source: simulate',
        'content-type: text/event-stream; charset=utf-8',
        'cache-control: no-cache',
        'connection',
        'x-accel-buffering: no',
        'date',
        'transfer-encoding',
      ],
    });
  });

  test('a relayed answer and a relayed error: the upstream’s own request id in the first place, the channel second', async () => {
    const relayed = await post('/v1/chat/completions', auth(), { ...CHAT, model: 'gpt-real' });
    assert.deepEqual(relayed.lines.slice(0, 3), [
      'x-request-id: upstream-7',
      'x-gatehouse-source: relay;channel=real',
      'content-type: application/json',
    ]);
    assert.equal(relayed.status, 200);
    assert.ok(!relayed.lines.some((line) => line.startsWith('x-other')), 'the upstream’s other headers stay out');
    const failed = await post('/v1/chat/completions', auth(), { ...CHAT, model: 'gpt-broken' });
    assert.equal(failed.status, 500);
    assert.deepEqual(failed.lines.slice(0, 4), [
      'x-request-id: <id>',
      'x-gatehouse-source: relay;channel=real',
      'content-type: application/json',
      'x-should-retry: true',
    ]);
  });

  test('refusals and faults: a call no source answered names none; CORS headers follow the id and source', async () => {
    const refused = await post('/v1/chat/completions', { authorization: 'Bearer gh-not-a-token' }, CHAT);
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.lines.slice(0, 3), [
      'x-request-id: <id>',
      'x-should-retry: false',
      'content-type: application/json; charset=utf-8',
    ]);
    assert.ok(!refused.lines.some((line) => line.startsWith('x-gatehouse-source')));
    const limited = await post('/v1/chat/completions', { ...auth(), 'x-gatehouse-fault': '429' }, CHAT);
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.lines.slice(0, 2), ['x-request-id: <id>', 'x-gatehouse-source: simulate']);
    const broken = await post('/v1/chat/completions', { ...auth(), 'x-gatehouse-fault': 'malformed' }, CHAT);
    assert.deepEqual(broken, {
      status: 200,
      lines: [
        'x-request-id: <id>',
        'x-gatehouse-source: simulate',
        'content-type: application/json',
        'date',
        'connection',
        'keep-alive',
        'transfer-encoding',
      ],
    });
    const cors = await post('/v1/chat/completions', { ...auth(), origin: 'https://app.example' }, CHAT);
    assert.deepEqual(cors.lines.slice(0, 3), ['x-request-id: <id>', 'x-gatehouse-source: simulate', 'vary: Origin']);
    assert.ok(cors.lines.includes('access-control-allow-origin: https://app.example'));
    const unknown = await post('/v1/no-such-thing', auth(), {});
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.lines.slice(0, 3), [
      'x-request-id: <id>',
      'x-should-retry: false',
      'content-type: application/json; charset=utf-8',
    ]);
    const health = await head(`${gw.url}/healthz`, 'GET', {});
    assert.deepEqual(health, {
      status: 200,
      lines: [
        'x-request-id: <id>',
        'content-type: application/json; charset=utf-8',
        'content-length: <n>',
        'date',
        'connection',
        'keep-alive',
      ],
    });
  });
});

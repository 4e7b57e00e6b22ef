// Integration tests of CORS: listed origins get preflights and readable answers (errors included), others get neither, and the console stays same-origin.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

const ALLOWED = 'http://localhost:5173';

describe('CORS', () => {
  let server: TestGateway;
  before(async () => {
    server = await startGateway({ corsOrigins: [ALLOWED] });
  });
  after(() => server.stop());

  const preflight = (path: string, origin: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-stainless-os',
        ...headers,
      },
    });

  test('a preflight from a listed origin is answered without a token, echoing the asked headers', async () => {
    const answer = await preflight('/v1/chat/completions', ALLOWED, { 'access-control-request-private-network': 'true' });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED);
    assert.match(answer.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(answer.headers.get('access-control-allow-headers'), 'authorization,content-type,x-stainless-os');
    assert.equal(answer.headers.get('access-control-allow-private-network'), 'true');
    assert.match(answer.headers.get('vary') ?? '', /Origin/);
  });

  test('preflights of the other protocols work too (Anthropic, Gemini, portrait)', async () => {
    for (const path of ['/v1/messages', '/v1beta/models/sim-chat:generateContent', '/v1/portrait/groups']) {
      const answer = await preflight(path, ALLOWED);
      assert.equal(answer.status, 204, path);
      assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED, path);
    }
  });

  test('a preflight from another origin is refused and carries no allow header', async () => {
    const answer = await preflight('/v1/chat/completions', 'https://evil.example');
    assert.equal(answer.status, 403);
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
    const body = (await answer.json()) as any;
    assert.match(body.error.message, /CORS origins/);
  });

  test('answers to a listed origin are readable, errors included; other origins get no allow header', async () => {
    const ok = await fetch(`${server.url}/v1/models`, { headers: { origin: ALLOWED, authorization: `Bearer ${server.token}` } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), ALLOWED);
    assert.equal(ok.headers.get('access-control-expose-headers'), '*');
    const refused = await fetch(`${server.url}/v1/models`, { headers: { origin: ALLOWED, authorization: 'Bearer wrong' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), ALLOWED, 'a browser client can read why it was refused');
    const other = await fetch(`${server.url}/v1/models`, {
      headers: { origin: 'https://evil.example', authorization: `Bearer ${server.token}` },
    });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('streamed answers carry the CORS headers too', async () => {
    const answer = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: ALLOWED, authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(answer.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED);
    assert.match(await answer.text(), /data: \[DONE\]/);
  });

  test('the console and admin API never answer another origin, listed or not', async () => {
    for (const path of ['/admin/api/status', '/console/']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { origin: ALLOWED } });
      assert.equal(answer.headers.get('access-control-allow-origin'), null, path);
    }
    const answer = await preflight('/admin/api/status', ALLOWED);
    assert.notEqual(answer.status, 204);
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
  });

  test('the openai SDK works through the same headers a browser sends', async () => {
    const client = new OpenAI({ apiKey: server.token, baseURL: `${server.url}/v1`, defaultHeaders: { origin: ALLOWED } });
    const { data, response } = await client.chat.completions
      .create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    assert.ok(data.choices[0]!.message.content);
    assert.equal(response.headers.get('access-control-allow-origin'), ALLOWED);
  });
});

describe('CORS with *', () => {
  test('every origin may call the API', async () => {
    const server = await startGateway({ corsOrigins: ['*'] });
    try {
      const answer = await fetch(`${server.url}/v1/embeddings`, {
        method: 'OPTIONS',
        headers: { origin: 'https://anything.example', 'access-control-request-method': 'POST' },
      });
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get('access-control-allow-origin'), 'https://anything.example');
      assert.match(answer.headers.get('access-control-allow-headers') ?? '', /authorization/);
    } finally {
      await server.stop();
    }
  });
});

describe('without CORS origins', () => {
  test('preflights are refused, so only same-origin pages and non-browser clients use the API', async () => {
    const server = await startGateway();
    try {
      const answer = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      assert.equal(answer.status, 403);
    } finally {
      await server.stop();
    }
  });
});

// Integration tests of hostile JSON bodies: deep or huge nesting never takes the gateway down (journal on or off), is a 400 in the caller's protocol, and the journal keeps the bytes as received.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_JSON_DEPTH } from '../../electron/gateway/server/json-depth.ts';
import type { Protocol } from '../../electron/gateway/server/protocol.ts';
import { JOURNAL_BODY_LIMIT } from '../../shared/journal.ts';
import { assertErrorEnvelope } from '../helpers/protocol-errors.ts';
import { openRaw } from '../helpers/realtime.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

const nested = (depth: number, inner = '0') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

/** A body nesting `depth` levels in a field each protocol processes, per route. */
const DEEP_CASES = (depth: number): Array<{ path: string; body: string; protocol: Protocol }> => [
  {
    path: '/v1/chat/completions',
    body: `{"model":"sim-chat","messages":[{"role":"user","content":${nested(depth - 3)}}]}`,
    protocol: 'openai',
  },
  { path: '/v1/responses', body: `{"model":"sim-chat","input":${nested(depth - 1)}}`, protocol: 'openai' },
  { path: '/v1/embeddings', body: `{"model":"sim-embed","input":${nested(depth - 1)}}`, protocol: 'openai' },
  {
    path: '/v1/messages',
    body: `{"model":"sim-chat","max_tokens":5,"messages":[{"role":"user","content":${nested(depth - 3)}}]}`,
    protocol: 'anthropic',
  },
  { path: '/v1beta/models/sim-chat:generateContent', body: `{"contents":[{"parts":${nested(depth - 3)}}]}`, protocol: 'gemini' },
  { path: '/v1/portrait/groups', body: `{"name":${nested(depth - 1)}}`, protocol: 'portrait' },
];

for (const journal of [true, false]) {
  describe(`deeply nested bodies, journal ${journal ? 'on' : 'off'}`, () => {
    let server: TestGateway;
    before(async () => {
      server = await startGateway({ journal });
    });
    after(() => server.stop());

    test("nesting past the limit in a processed field is a 400 in the caller's protocol that names the limit; the gateway keeps answering", async () => {
      for (const depth of [MAX_JSON_DEPTH + 1, 5000, 100_000]) {
        for (const { path, body, protocol } of DEEP_CASES(depth)) {
          const answer = await request(`${server.url}${path}`, 'POST', { token: server.token, body });
          assertErrorEnvelope(protocol, answer.status, answer.body, `${path} at depth ${depth}`);
          assert.equal(answer.status, protocol === 'portrait' ? 200 : 400);
          assert.match(JSON.stringify(answer.body), new RegExp(`${MAX_JSON_DEPTH} levels`), path);
        }
      }
      assert.equal((await request(`${server.url}/healthz`, 'GET')).status, 200);
    });

    test('nesting at the limit is parsed and answered like any body', async () => {
      const answer = await request(`${server.url}/v1/embeddings`, 'POST', {
        token: server.token,
        body: `{"model":"sim-embed","input":${nested(MAX_JSON_DEPTH - 1)}}`,
      });
      assert.equal(answer.status, 400);
      assert.doesNotMatch(answer.body.error.message, /levels deep/, 'refused for its type, not its depth');
    });
  });
}

describe('the journal keeps hostile bodies as received', () => {
  let server: TestGateway;
  const admin = (path: string) => request(`${server.url}/admin/api${path}`, 'GET', { token: server.gateway.adminToken });
  before(async () => {
    server = await startGateway();
  });
  after(() => server.stop());

  test('a 9 MB body nested to the limit is answered, journaled cut at the limit, and the gateway keeps answering', async () => {
    // Indented, this body would pass V8's longest string (it threw "Invalid string length" in the journal and exited).
    const items = '0,'.repeat(4_500_000);
    const body = `{"model":"sim-embed","input":${nested(MAX_JSON_DEPTH - 1, `${items}0`)}}`;
    const answer = await request(`${server.url}/v1/embeddings`, 'POST', { token: server.token, body });
    assert.equal(answer.status, 400);
    assert.equal((await request(`${server.url}/healthz`, 'GET')).status, 200);
    const entry = (await admin('/journal?path=/v1/embeddings')).body.items[0];
    const kept = (await admin(`/journal/${entry.id}`)).body.request;
    assert.equal(kept.bytes, Buffer.byteLength(body));
    assert.equal(kept.truncated, true);
    assert.equal(kept.text, body.slice(0, JOURNAL_BODY_LIMIT), 'the bytes as received, not a re-serialisation');
  });

  test('a body refused for its depth or as bad JSON is journaled as received', async () => {
    const deep = `{"model":"sim-chat","messages":${nested(5000)}}`;
    await request(`${server.url}/v1/chat/completions`, 'POST', { token: server.token, body: deep });
    const bad = '{"model":"sim-chat", oops';
    await request(`${server.url}/v1/chat/completions`, 'POST', { token: server.token, body: bad });
    const [badEntry, deepEntry] = (await admin('/journal?path=/v1/chat/completions')).body.items;
    assert.equal((await admin(`/journal/${deepEntry.id}`)).body.request.text, deep);
    assert.equal((await admin(`/journal/${badEntry.id}`)).body.request.text, bad);
  });

  test('a small JSON body is shown indented for reading, its values as received', async () => {
    await request(`${server.url}/v1/embeddings`, 'POST', { token: server.token, body: '{"model":"sim-embed","input":["a", 1.50]}' });
    const entry = (await admin('/journal?path=/v1/embeddings')).body.items[0];
    assert.equal(
      (await admin(`/journal/${entry.id}`)).body.request.text,
      '{\n  "model": "sim-embed",\n  "input": [\n    "a",\n    1.50\n  ]\n}',
    );
  });

  test('a journal listener that throws loses nothing but its own work: calls, the journal and the process go on', async () => {
    // No `error` listener either: an unheard error event used to be thrown too.
    server.gateway.events.on('journal.added', () => {
      throw new Error('a broken listener');
    });
    const call = await request(`${server.url}/v1/embeddings`, 'POST', {
      token: server.token,
      body: { model: 'sim-embed', input: 'after' },
    });
    assert.equal(call.status, 200);
    const listed = await admin('/journal?path=/v1/embeddings');
    assert.equal(listed.status, 200, 'listing flushes the batch, which announces it to the throwing listener');
    assert.match((await admin(`/journal/${listed.body.items[0].id}`)).body.request.text, /after/);
    assert.equal((await request(`${server.url}/healthz`, 'GET')).status, 200);
  });

  test('a realtime client event nested past the limit is an invalid_request_error event; the session goes on', async () => {
    const client = await openRaw(`${server.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    try {
      await client.next('session.created');
      client.send(`{"type":"session.update","session":{"instructions":${nested(100_000)}}}`);
      const error = await client.next('error');
      assert.equal(error.error.type, 'invalid_request_error');
      assert.match(error.error.message, new RegExp(`${MAX_JSON_DEPTH} levels`));
      client.send({ type: 'session.update', session: { type: 'realtime', instructions: 'still here' } });
      assert.equal((await client.next('session.updated')).session.instructions, 'still here');
    } finally {
      client.socket.close();
    }
  });
});

// Integration tests of the relay's own undici handler (upstream-call.ts) through a real gateway: a JSON answer whose body comes after its head, at or past the held-bytes bound, reaches the caller whole; a streamed form to an upstream that refuses the connection is a 502, not a dead process; a channel whose connection never completes is given up at its own time limit.
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import OpenAI, { APIError, toFile } from 'openai';
import { UPSTREAM_HELD_BYTES } from '../../electron/gateway/providers/relay/upstream-call.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { startGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, stoppedAfterAll } from '../helpers/hostile-upstream.ts';

/** How long the upstream waits between its head and its body: long enough for the relay to be reading, waiting for it. */
const BODY_AFTER_HEAD_MS = 50;

const started = stoppedAfterAll();

/** A chat completion of `content`, as JSON text. */
function completionOf(content: string): string {
  return JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-late',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/** The content that makes a completion of exactly `size` bytes. */
function contentOf(size: number): string {
  return 'a'.repeat(size - completionOf('').length);
}

describe('a JSON answer whose body comes after its head', () => {
  for (const size of [UPSTREAM_HELD_BYTES, 2 * UPSTREAM_HELD_BYTES, 100_000]) {
    test(`of ${size} bytes reaches the caller whole`, async () => {
      const body = completionOf(contentOf(size));
      const up = await hostileUpstream((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        response.flushHeaders();
        setTimeout(() => response.end(body), BODY_AFTER_HEAD_MS);
      });
      const gw = await gatewayBefore(up, 'openai');
      started.push({ up, gw });
      const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
      const completion = await openai.chat.completions.create({ model: 'gpt-late', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(completion.choices[0]!.message.content, contentOf(size));
      // The gateway lives on and answers the next call too.
      const again = await openai.chat.completions.create({ model: 'gpt-late', messages: [{ role: 'user', content: 'again' }] });
      assert.equal(again.choices[0]!.message.content, contentOf(size));
    });
  }
});

test('a streamed form (a transcription, a translation) to an upstream that refuses the connection is a 502 naming why', async () => {
  // An upstream closed before the call: its port refuses connections.
  const up = await hostileUpstream();
  await up.close();
  const gw = await gatewayBefore(up, 'openai');
  started.push({ up: { ...up, close: async () => {} }, gw });
  const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  const file = await toFile(Buffer.alloc(4000), 'a.wav', { type: 'audio/wav' });
  for (const call of [
    () => openai.audio.transcriptions.create({ model: 'whisper-1', file }),
    () => openai.audio.translations.create({ model: 'whisper-1', file }),
  ]) {
    await assert.rejects(call(), (error) => {
      assert.ok(error instanceof APIError, String(error));
      assert.equal(error.status, 502);
      assert.match(error.message, /ECONNREFUSED/);
      return true;
    });
  }
  // Still alive: it answers its health check.
  assert.equal((await fetch(`${gw.url}/healthz`)).status, 200);
});

/** Below undici's own connect timeout (10 s), with room for a busy machine, which a channel's limit must not wait for; far above the channel's 300 ms. */
const GIVEN_UP_WITHIN_MS = 8_000;

test('a channel whose connection never completes (TLS handshake unanswered) is given up at its own timeout for the next one', async () => {
  // Accepts TCP connections and never says a word: an https channel there never gets its handshake, so undici never starts the request.
  const silent: net.Socket[] = [];
  const blackHole = net.createServer((socket) => silent.push(socket));
  blackHole.listen(0, '127.0.0.1');
  await once(blackHole, 'listening');
  const port = (blackHole.address() as net.AddressInfo).port;
  const spare = await hostileUpstream((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(completionOf('from the spare'));
  });
  const gw = await startGateway({
    channels: memoryChannels([
      {
        name: 'unreachable',
        kind: 'openai',
        baseUrl: `https://127.0.0.1:${port}/v1`,
        key: 'sk-a',
        models: ['*'],
        priority: 2,
        timeoutMs: 300,
      },
      { name: 'spare', kind: 'openai', baseUrl: spare.url, key: 'sk-b', models: ['*'], priority: 1 },
    ]),
  });
  started.push({ up: spare, gw });
  try {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const began = performance.now();
    const completion = await openai.chat.completions.create({ model: 'gpt-late', messages: [{ role: 'user', content: 'hi' }] });
    const took = performance.now() - began;
    assert.equal(completion.choices[0]!.message.content, 'from the spare');
    assert.ok(silent.length > 0, 'the gateway did try the unreachable channel first');
    assert.ok(took < GIVEN_UP_WITHIN_MS, `answered by the spare after ${Math.round(took)} ms`);
  } finally {
    for (const socket of silent) socket.destroy();
    blackHole.close();
  }
});

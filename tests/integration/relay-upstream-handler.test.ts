// Integration tests of the relay's own undici handler (upstream-call.ts) through a real gateway: a JSON answer whose body comes after its head, at or past the held-bytes bound, reaches the caller whole; a streamed form to an upstream that refuses the connection is a 502, not a dead process.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import OpenAI, { APIError, toFile } from 'openai';
import { UPSTREAM_HELD_BYTES } from '../../electron/gateway/providers/relay/upstream-call.ts';
import type { TestGateway } from '../helpers/gateway.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

/** How long the upstream waits between its head and its body: long enough for the relay to be reading, waiting for it. */
const BODY_AFTER_HEAD_MS = 50;

const started: { up: HostileUpstream; gw: TestGateway }[] = [];
after(async () => {
  for (const { up, gw } of started.splice(0)) {
    await gw.stop();
    await up.close();
  }
});

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

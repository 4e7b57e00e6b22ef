// Unit tests of the translation core: reading an upstream's event stream into JSON events, and upstream error answers into errors that keep the status.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { upstreamError } from '../../../electron/gateway/protocols/neutral/upstream-errors.ts';
import { sseJson } from '../../../electron/gateway/providers/relay/translate/event-stream.ts';

async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function all(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe('sseJson', () => {
  const stream = 'event: message_start\ndata: {"type":"message_start","n":1}\n\n: comment\n\ndata: {"t":"é"}\r\n\r\ndata: [DONE]\n\n';

  test('yields the data of each event however the bytes are cut, skipping comments and [DONE]', async () => {
    for (const size of [1, 3, 7, 1000]) {
      assert.deepEqual(await all(sseJson(pieces(stream, size))), [{ type: 'message_start', n: 1 }, { t: 'é' }], `pieces of ${size}`);
    }
  });

  test('a last event without its blank line still counts', async () => {
    assert.deepEqual(await all(sseJson(pieces('data: {"a":1}\n\ndata: {"b":2}', 4))), [{ a: 1 }, { b: 2 }]);
  });

  test('data that is not JSON is an upstream failure', async () => {
    await assert.rejects(all(sseJson(pieces('data: {oops\n\n', 5))), /not JSON/);
  });
});

describe('upstreamError', () => {
  test('reads the message of each protocol shape and keeps the status', () => {
    const openai = upstreamError(429, { error: { message: 'slow down', type: 'rate_limit_exceeded' } });
    assert.equal(openai.kind, 'rate_limited');
    assert.equal(openai.status, 429);
    assert.equal(openai.message, 'slow down');
    const anthropic = upstreamError(529, { type: 'error', error: { type: 'overloaded_error', message: 'busy' } });
    assert.equal(anthropic.kind, 'overloaded');
    assert.equal(anthropic.message, 'busy');
    const gemini = upstreamError(400, { error: { code: 400, message: 'bad field', status: 'INVALID_ARGUMENT' } });
    assert.equal(gemini.kind, 'invalid_request');
    assert.equal(upstreamError(418, 'teapot').message, 'teapot');
    assert.equal(upstreamError(504, '').kind, 'upstream_failed');
    assert.equal(upstreamError(504, '').status, 504);
  });
});

// Unit test of writing a relayed answer: the bytes go out as the upstream sends them (chunked while still arriving, with a Content-Length when the upstream sent them whole), a whole stream that breaks still gets its head and error event, and a charge that throws once the answer ended is reported, never thrown out of the process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import type { PassthroughProvider, RelayedUsage } from '../../../electron/gateway/providers/types.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import { callOf } from '../../../electron/gateway/server/call-context.ts';
import { relayReply } from '../../../electron/gateway/server/relay-reply.ts';
import { eventually } from '../../helpers/eventually.ts';

test('a charge that throws after a relayed answer is reported; the answer and the process are unharmed', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const reported: unknown[] = [];
  const passthrough: PassthroughProvider = {
    forward: async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: (async function* () {
        yield Buffer.from('{"id":"chatcmpl-1",');
        yield Buffer.from('"usage":{"prompt_tokens":3}}');
      })(),
      usage: Promise.resolve<RelayedUsage>({ inputTokens: 3, outputTokens: 1, delivered: { tokens: 0 } }),
      channelId: 'ch_1',
    }),
  };
  const app = Fastify();
  app.post('/v1/chat/completions', async (request, reply) => {
    const call = callOf(request, reply, 'openai', '/v1/chat/completions');
    const asked = { operation: 'chat', model: 'm', stream: false } as const;
    const failure = { report: (error: unknown) => reported.push(error) };
    return relayReply(request, reply, passthrough, asked, call, failure, () => {
      throw new Error('the ledger is gone');
    });
  });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const answer = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(answer.status, 200);
    // Still arriving when its head went: its length unknown, it goes chunked.
    assert.equal(answer.headers.get('content-length'), null);
    assert.equal(answer.headers.get('transfer-encoding'), 'chunked');
    assert.equal(await answer.text(), '{"id":"chatcmpl-1","usage":{"prompt_tokens":3}}');
    // The charge fails after the answer went out: polled, since a busy machine may not have got there yet.
    await eventually(() => reported.length > 0, 'the failed charge is reported');
    assert.deepEqual(
      reported.map((error) => (error as Error).message),
      ['the ledger is gone'],
    );
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await app.close();
  }
});

test('an answer the upstream already sent whole (JSON, or a short stream) is written at once with its head: no read waits for the upstream', async () => {
  // Multi-byte text: the length counts bytes. A 204 has no body, so no length either.
  const answers: Record<string, { type: string; bytes: string; status?: number }> = {
    json: { type: 'application/json', bytes: '{"id":"chatcmpl-2","text":"Grüße, 東京 🌊","usage":{"prompt_tokens":1}}' },
    sse: { type: 'text/event-stream', bytes: 'data: {"id":"chatcmpl-3","text":"é"}\n\ndata: [DONE]\n\n' },
    empty: { type: 'application/json', bytes: '', status: 204 },
  };
  const reads: string[] = [];
  let returned = 0;
  const passthrough: PassthroughProvider = {
    forward: async (request) => {
      const answer = answers[request.model]!;
      const body = {
        [Symbol.asyncIterator]: () => body,
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          reads.push(request.model);
          return { done: true, value: undefined };
        },
        return: async (): Promise<IteratorResult<Uint8Array>> => {
          returned += 1;
          return { done: true, value: undefined };
        },
        atOnce: () => Buffer.from(answer.bytes),
      };
      return {
        status: answer.status ?? 200,
        headers: { 'content-type': answer.type },
        body,
        usage: Promise.resolve<RelayedUsage>({ inputTokens: 1, outputTokens: 1, delivered: { tokens: 0 } }),
      };
    },
  };
  const app = Fastify();
  app.post('/v1/chat/completions', async (request, reply) => {
    const call = callOf(request, reply, 'openai', '/v1/chat/completions');
    const model = (request.body as { model: string }).model;
    return relayReply(request, reply, passthrough, { operation: 'chat', model, stream: model === 'sse' }, call, {});
  });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const [model, answer] of Object.entries(answers)) {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.status, answer.status ?? 200);
      assert.equal(response.headers.get('content-type'), answer.type);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      // Its length is known: it goes with a Content-Length, not chunked (a 204 with neither).
      assert.equal(response.headers.get('content-length'), answer.status === 204 ? null : String(Buffer.byteLength(answer.bytes)));
      assert.equal(response.headers.get('transfer-encoding'), null);
      assert.equal(await response.text(), answer.bytes);
    }
    assert.deepEqual(reads, [], 'no read of the body waited');
    await eventually(() => returned === 3, 'each body is given back, so its usage is read');
  } finally {
    await app.close();
  }
});

/** A Fastify app answering POST /relay through `passthrough` (with the OpenAI stream's error event). */
async function relayApp(passthrough: PassthroughProvider, stream: boolean) {
  const app = Fastify();
  app.post('/relay', async (request, reply) => {
    const call = callOf(request, reply, 'openai', '/v1/chat/completions');
    const failure = {
      errorEvent: (error: { message: string }) => ({ data: { error: { message: error.message } } }),
    };
    return relayReply(request, reply, passthrough, { operation: 'chat', model: 'm', stream }, call, failure);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `${url}/relay` };
}

test('a whole stream whose scrub or tap breaks still gets its head, then the error event, as one that broke mid-way', async () => {
  const passthrough: PassthroughProvider = {
    forward: async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: {
        [Symbol.asyncIterator]() {
          return { next: async () => ({ done: true as const, value: undefined }) };
        },
        atOnce: () => {
          throw new GatewayError('upstream_failed', 'The relayed stream failed its scrub.');
        },
      },
      usage: Promise.resolve<RelayedUsage>({ inputTokens: 2, outputTokens: 1, delivered: { tokens: 0 } }),
    }),
  };
  const { app, url } = await relayApp(passthrough, true);
  try {
    const response = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await response.text(), 'data: {"error":{"message":"The relayed stream failed its scrub."}}\n\n');
  } finally {
    await app.close();
  }
});

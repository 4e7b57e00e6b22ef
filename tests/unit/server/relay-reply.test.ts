// Unit test of writing a relayed answer: the bytes go out as the upstream sends them, and a charge that throws once the answer ended is reported, never thrown out of the process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import type { PassthroughProvider, RelayedUsage } from '../../../electron/gateway/providers/types.ts';
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

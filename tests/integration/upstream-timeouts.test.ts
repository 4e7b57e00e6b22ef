// Integration tests of upstream time limits: a hostile upstream that sends headers then silence, stalls an error body or drips a stream forever holds no caller; each read ends by the channel's idle timeout or deadline and the upstream connection is closed.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

/** Generous: the limits under test are a fraction of a second, the bound only fails a caller that is held. */
const BOUND_MS = 15_000;
const IDLE_MS = 300;

const ANSWER = chatCompletion('gpt-test', 'healthy answer', { id: 'chatcmpl-1' });

/** `work`, or a failure naming `what` when it takes longer than BOUND_MS (a caller held by the upstream). */
async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const held = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still held after ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    return await Promise.race([work, held]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves when the upstream's socket of `response` closes (the gateway closed the connection). */
function closed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => response.socket!.once('close', () => resolve()));
}

/** A channel of `kind` to `upstream`, serving every model, with the time limits under test. */
function channel(upstream: HostileUpstream, name: string, extra: Partial<TestChannel> = {}): TestChannel {
  return { name, kind: 'openai', baseUrl: `${upstream.url}/v1`, key: 'sk-upstream-key', models: ['*'], idleTimeoutMs: IDLE_MS, ...extra };
}

/** A streamed chat call of `model` saying hi. */
function streamHi(client: OpenAI, model: string) {
  return client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true });
}

/** Reads a whole SDK stream; resolves with the error it threw (or fails when it ended without one). */
async function streamError(stream: AsyncIterable<unknown>): Promise<Error> {
  try {
    for await (const _ of stream) {
      // every chunk is dropped: the test looks at how the stream ends
    }
  } catch (error) {
    return error as Error;
  }
  throw new Error('the stream ended without an error');
}

describe('upstream time limits', () => {
  const upstreams: HostileUpstream[] = [];
  const gateways: TestGateway[] = [];
  const start = async (channels: TestChannel[]) => {
    const gw = await startGateway({ channels: memoryChannels(channels) });
    gateways.push(gw);
    return { gw, client: new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 }) };
  };
  const upstream = async () => {
    const up = await hostileUpstream();
    upstreams.push(up);
    return up;
  };
  /** A new upstream answering every request with `write`; `socketClosed()` resolves when the connection of its last answer closes. */
  const scripted = async (write: (response: ServerResponse) => void) => {
    const up = await upstream();
    let socketClosed: Promise<void> | undefined;
    up.handle((_, response) => {
      socketClosed = closed(response);
      write(response);
    });
    return { up, socketClosed: () => socketClosed! };
  };
  /** Sends a stream's headers, then nothing. */
  const silentStream = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.flushHeaders();
  };
  /** Asserts `error` is the idle-timeout cut and that the upstream connection then closes. */
  const assertIdleCut = async (error: Error, socketClosed: () => Promise<void>) => {
    assert.match(error.message, new RegExp(`sent nothing for ${IDLE_MS} ms`));
    await within('the upstream connection closing', socketClosed());
  };
  after(async () => {
    for (const gw of gateways) await gw.stop();
    for (const up of upstreams) await up.close();
  });

  test('a stream whose upstream sends headers then nothing ends with the protocol error event after the idle timeout; the upstream is closed', async () => {
    const { up, socketClosed } = await scripted(silentStream);
    const { client } = await start([channel(up, 'silent')]);
    const stream = await streamHi(client, 'gpt-test');
    const error = await within('the silent stream', streamError(stream));
    assert.ok(error instanceof OpenAI.APIError, `an error event in the stream, not a broken connection (${error.message})`);
    await assertIdleCut(error, socketClosed);
  });

  test('a JSON answer whose upstream sends headers then nothing is cut after the idle timeout, never passed off as whole', async () => {
    const { up, socketClosed } = await scripted((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"chatcmpl-1","choices":[');
    });
    const { client } = await start([channel(up, 'half')]);
    const error = await within(
      'the half JSON answer',
      client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).then(
        () => assert.fail('a cut answer must not parse'),
        (error: unknown) => error as Error,
      ),
    );
    // The SDK reads a body cut mid-way as undici's "terminated" (a connection error), never as JSON that fails to parse.
    assert.ok(!(error instanceof SyntaxError), `the answer was ended as if whole (${error.message})`);
    assert.match(error.message, /terminated|connection/i);
    await within('the upstream connection closing', socketClosed());
  });

  test('a 500 whose body stalls fails over to the next channel, which answers', async () => {
    const { up: stalled, socketClosed } = await scripted((response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.write('{"error":{"message":"over');
    });
    const healthy = await upstream();
    healthy.handle((_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER)));
    const { client } = await start([channel(stalled, 'stalled', { priority: 2 }), channel(healthy, 'healthy', { priority: 1 })]);
    const answer = await within(
      'the failover',
      client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
    );
    assert.equal(answer.choices[0]!.message.content, 'healthy answer');
    assert.equal(stalled.requests.length, 1);
    assert.equal(healthy.requests.length, 1);
    await within('the stalled connection closing', socketClosed());
  });

  test('a stream that drips an event just under the idle timeout forever is cut at the deadline with the protocol error event', async () => {
    const drips = new Set<NodeJS.Timeout>();
    const { up, socketClosed } = await scripted((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-test',
        choices: [{ index: 0, delta: { content: '.' } }],
      };
      const drip = setInterval(() => response.write(`data: ${JSON.stringify(chunk)}\n\n`), IDLE_MS / 3);
      drips.add(drip);
      response.socket!.once('close', () => clearInterval(drip));
    });
    const { client } = await start([channel(up, 'dripping', { deadlineMs: 1_500 })]);
    try {
      const stream = await streamHi(client, 'gpt-test');
      const error = await within('the dripping stream', streamError(stream));
      assert.ok(error instanceof OpenAI.APIError, `an error event in the stream (${error.message})`);
      assert.match(error.message, /deadline of 1500 ms/);
      await within('the upstream connection closing', socketClosed());
    } finally {
      for (const drip of drips) clearInterval(drip);
    }
  });

  test('a translated stream (an anthropic channel) whose upstream goes silent ends with the caller protocol error event', async () => {
    const { up, socketClosed } = await scripted((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `event: message_start\ndata: ${JSON.stringify({
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [],
            usage: { input_tokens: 3, output_tokens: 0 },
          },
        })}\n\n`,
      );
    });
    const { client } = await start([
      { name: 'claude', kind: 'anthropic', baseUrl: up.url, key: 'sk-ant-key', models: ['*'], idleTimeoutMs: IDLE_MS },
    ]);
    const stream = await streamHi(client, 'claude-test');
    const error = await within('the silent translated stream', streamError(stream));
    assert.ok(error instanceof OpenAI.APIError, `an error event in the stream (${error.message})`);
    await assertIdleCut(error, socketClosed);
  });

  test('a channel saved through the admin API with idle_timeout_ms keeps it: its silent stream is cut after that time', async () => {
    const { up, socketClosed } = await scripted(silentStream);
    const gw = await startGateway();
    gateways.push(gw);
    const saved = await request(`${gw.url}/admin/api/channels`, 'POST', {
      token: gw.gateway.adminToken,
      body: {
        name: 'stored',
        kind: 'openai',
        base_url: `${up.url}/v1`,
        models: 'gpt-stored',
        idle_timeout_ms: IDLE_MS,
        deadline_ms: 60_000,
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.idle_timeout_ms, IDLE_MS);
    assert.equal(saved.body.deadline_ms, 60_000);
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const stream = await streamHi(client, 'gpt-stored');
    const error = await within('the silent stream of a stored channel', streamError(stream));
    await assertIdleCut(error, socketClosed);
  });
});

// A hostile upstream stream cannot freeze the gateway or grow its memory: an event that never ends is cut at the per-event cap with the caller's error event, a bare-CR stream is not held back, an endless stream keeps memory flat.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { MAX_SSE_EVENT_BYTES } from '../../shared/sse-reader.ts';
import type { ChannelKind } from '../../electron/gateway/providers/types.ts';
import { gatewayBefore, hostileUpstream, stoppedAfterAll } from '../helpers/hostile-upstream.ts';

const CHUNK = 64 * 1024;
/** What a hostile upstream sends at most before it gives up: three times the per-event cap. */
const HOSTILE_BYTES = 3 * MAX_SSE_EVENT_BYTES;
/** The median /healthz answer time allowed while a hostile stream runs. */
const HEALTH_BOUND_MS = 500;

const started = stoppedAfterAll();

/** An upstream that answers every call with `head` and then 64 KiB chunks of one endless line; `cut` settles when its answer closes: true when the gateway closed it before it was done. */
async function endlessLine(kind: ChannelKind, contentType: string, head: string) {
  let cut!: Promise<boolean>;
  let sent = 0;
  const up = await hostileUpstream(async (_request, response) => {
    let ended = false;
    cut = new Promise((resolve) => response.once('close', () => resolve(!ended)));
    response.writeHead(200, { 'content-type': contentType });
    response.write(head);
    const line = Buffer.alloc(CHUNK, 'a');
    while (sent < HOSTILE_BYTES && !response.destroyed) {
      sent += CHUNK;
      if (!response.write(line)) await drained(response);
    }
    ended = true;
    response.end();
  });
  const gw = await gatewayBefore(up, kind);
  started.push({ up, gw });
  return { up, gw, cut: () => cut, sent: () => sent };
}

/** Resolves once `response` can take more, or closed. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

/** The poller: another process (as another user of the gateway is) that calls `/healthz` one call after another and prints each answer's time in ms. */
const POLLER = `
const url = process.argv[1];
for (;;) {
  const start = performance.now();
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    await answer.arrayBuffer();
    console.log(answer.status === 200 ? Math.round(performance.now() - start) : 'status ' + answer.status);
  } catch (error) {
    console.log('failed: ' + error.message);
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}`;

/**
 * Polls `/healthz` from another process; `ready` once it has answered twice (a warm poller), `stop()` resolves with the
 * median answer time since then, in ms. A loop the stream blocks slows every answer; a busy machine (other processes on
 * the same cores) slows one now and then, so the median tells the two apart where the slowest answer could not.
 */
function pollHealth(url: string): { ready: Promise<void>; stop(): Promise<number> } {
  const poller = spawn(process.execPath, ['--input-type=module', '-e', POLLER, `${url}/healthz`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const times: string[] = [];
  let warm!: () => void;
  const ready = new Promise<void>((resolve) => (warm = resolve));
  let warmups = 2;
  poller.stdout.setEncoding('utf8');
  poller.stdout.on('data', (text: string) => {
    for (const time of text.split('\n').filter(Boolean)) {
      if (warmups > 0) warmups -= 1;
      else times.push(time);
      if (warmups === 0) warm();
    }
  });
  return {
    ready,
    async stop() {
      // At least one answer while the stream ran.
      while (times.length === 0) await once(poller.stdout, 'data');
      poller.kill();
      await once(poller, 'exit');
      console.log(`# /healthz from another process: ${times.join(' ')} ms`);
      assert.ok(
        times.every((time) => /^\d+$/.test(time)),
        'every /healthz call answered 200',
      );
      const sorted = times.map(Number).sort((a, b) => a - b);
      return sorted[Math.floor((sorted.length - 1) / 2)]!;
    },
  };
}

/** Runs `call` (which must fail with the cap's error) while /healthz is polled; checks the answer time, the error and that the upstream was closed early. */
async function cutAtCap(hostile: Awaited<ReturnType<typeof endlessLine>>, call: () => Promise<unknown>): Promise<void> {
  const health = pollHealth(hostile.gw.url);
  await health.ready;
  const failure = await call().then(
    () => undefined,
    (error: unknown) => error,
  );
  const median = await health.stop();
  assert.ok(failure instanceof Error, 'the call ends with an error');
  assert.match(failure.message, /stream event over 16 MiB/);
  assert.equal(await hostile.cut(), true, 'the gateway closed the upstream before it was done');
  assert.ok(hostile.sent() < HOSTILE_BYTES, `the upstream stopped after ${hostile.sent()} bytes`);
  assert.ok(median < HEALTH_BOUND_MS, `/healthz answered in ${median} ms (median) while the stream ran`);
}

const ask = [{ role: 'user' as const, content: 'hi' }];

describe('an upstream event that never ends', { timeout: 120_000 }, () => {
  test('OpenAI chat: the SDK gets the error event once the event passes the cap, the upstream is closed, /healthz stays fast', async () => {
    const hostile = await endlessLine('openai', 'text/event-stream', 'data: {"choices":[{"index":0,"delta":{"content":"');
    const client = new OpenAI({ baseURL: `${hostile.gw.url}/v1`, apiKey: hostile.gw.token, maxRetries: 0 });
    await cutAtCap(hostile, async () => {
      for await (const _ of await client.chat.completions.create({ model: 'any', stream: true, messages: ask }));
    });
  });

  test('Anthropic messages: the SDK gets the error event, the upstream is closed', async () => {
    const hostile = await endlessLine(
      'anthropic',
      'text/event-stream',
      'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"',
    );
    const client = new Anthropic({ baseURL: hostile.gw.url, apiKey: hostile.gw.token, maxRetries: 0 });
    await cutAtCap(hostile, async () => {
      for await (const _ of await client.messages.create({ model: 'any', max_tokens: 50, stream: true, messages: ask }));
    });
  });

  test('Gemini streamGenerateContent with alt=sse: the SDK gets the error chunk, the upstream is closed', async () => {
    const hostile = await endlessLine('gemini', 'text/event-stream', 'data: {"candidates":[{"content":{"parts":[{"text":"');
    const client = new GoogleGenAI({ apiKey: hostile.gw.token, httpOptions: { baseUrl: hostile.gw.url, apiVersion: 'v1beta' } });
    await cutAtCap(hostile, async () => {
      for await (const _ of await client.models.generateContentStream({ model: 'any', contents: 'hi' }));
    });
  });

  test('Gemini streamGenerateContent as a JSON array: an element that never closes is not passed on, and the answer is cut', async () => {
    const hostile = await endlessLine('gemini', 'application/json', '[{"candidates":[{"content":{"parts":[{"text":"');
    const health = pollHealth(hostile.gw.url);
    await health.ready;
    // Nothing whole went out before the cap, so the caller sees the connection cut (before or after the headers), never an end.
    const body = await fetch(`${hostile.gw.url}/v1beta/models/any:streamGenerateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': hostile.gw.token, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
    })
      .then((answer) => answer.text())
      .then(
        (text) => assert.fail(`the answer ended as if whole (${text.length} characters)`),
        (error: unknown) => String(error),
      );
    const median = await health.stop();
    assert.ok(body.length < 1024, `the caller got ${body.length} characters, not the endless element`);
    assert.equal(await hostile.cut(), true, 'the gateway closed the upstream before it was done');
    assert.ok(hostile.sent() < HOSTILE_BYTES);
    assert.ok(median < HEALTH_BOUND_MS, `/healthz answered in ${median} ms (median) while the stream ran`);
  });

  test('translated chat (an Anthropic client before an OpenAI channel): the client gets its error event, the upstream is closed', async () => {
    const hostile = await endlessLine('openai', 'text/event-stream', 'data: {"choices":[{"index":0,"delta":{"content":"');
    const client = new Anthropic({ baseURL: hostile.gw.url, apiKey: hostile.gw.token, maxRetries: 0 });
    await cutAtCap(hostile, async () => {
      for await (const _ of await client.messages.create({ model: 'any', max_tokens: 50, stream: true, messages: ask }));
    });
    assert.equal(hostile.up.requests[0]!.url, '/chat/completions', 'the call was translated to the OpenAI wire');
  });
});

describe('an upstream ending lines with a bare CR', () => {
  test('its first event reaches the client before the upstream sends the second', async () => {
    let clientSawFirst!: () => void;
    const seen = new Promise<void>((resolve) => (clientSawFirst = resolve));
    const order: string[] = [];
    const delta = (text: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\r\r`;
    const up = await hostileUpstream(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(delta('one '));
      // Waits (generously) for the client to see the first event before the second is sent.
      const timer = new Promise((resolve) => setTimeout(resolve, 20_000, 'timed out'));
      order.push((await Promise.race([seen.then(() => 'seen'), timer])) === 'seen' ? 'client saw event 1' : 'gave up waiting');
      order.push('upstream sent event 2');
      response.end(`${delta('two')}data: [DONE]\r\r`);
    });
    const gw = await gatewayBefore(up, 'openai');
    started.push({ up, gw });
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model: 'any', stream: true, messages: ask })) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (text === 'one ') clientSawFirst();
    }
    assert.equal(text, 'one two');
    assert.deepEqual(order, ['client saw event 1', 'upstream sent event 2']);
  });
});

describe('an endless stream of small valid events', { timeout: 240_000 }, () => {
  const routes = [
    {
      name: 'relayed OpenAI chat',
      path: '/v1/chat/completions',
      headers: (token: string) => ({ authorization: `Bearer ${token}` }),
      body: { model: 'any', stream: true, messages: ask },
    },
    {
      name: 'translated chat (an Anthropic client before an OpenAI channel)',
      path: '/v1/messages',
      headers: (token: string) => ({ 'x-api-key': token, 'anthropic-version': '2023-06-01' }),
      body: { model: 'any', max_tokens: 50, stream: true, messages: ask },
    },
    {
      // Its first event names no usage (held unread), every later one does (`"usage":null`, as OpenAI sends with
      // include_usage): their text must still be counted as it passes, not queued behind the first.
      name: 'relayed OpenAI chat whose events after the first carry "usage":null',
      path: '/v1/chat/completions',
      headers: (token: string) => ({ authorization: `Bearer ${token}` }),
      body: { model: 'any', stream: true, messages: ask },
      first: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })}\n\n`,
      usage: { usage: null },
    },
  ];
  for (const route of routes) {
    test(`${route.name}: memory stays flat while tens of MB of deltas pass`, async () => {
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      const words = 'lorem ipsum dolor sit amet '.repeat(40);
      const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: words } }], ...route.usage })}\n\n`;
      const batch = Buffer.from(event.repeat(Math.floor(CHUNK / event.length)));
      const total = 48 * 1024 * 1024;
      const up = await hostileUpstream(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        if (route.first !== undefined) response.write(route.first);
        for (let sent = 0; sent < total && !response.destroyed; sent += batch.length) {
          if (!response.write(batch)) await drained(response);
        }
        response.end('data: [DONE]\n\n');
      });
      const gw = await gatewayBefore(up, 'openai');
      started.push({ up, gw });
      const answer = await fetch(`${gw.url}${route.path}`, {
        method: 'POST',
        headers: { ...route.headers(gw.token), 'content-type': 'application/json' },
        body: JSON.stringify(route.body),
      });
      assert.equal(answer.status, 200);
      const heap = () => (gc(), process.memoryUsage().heapUsed);
      let received = 0;
      let start: number | undefined;
      let growth: number | undefined;
      for await (const chunk of answer.body!) {
        received += chunk.length;
        if (start === undefined && received > 8 * 1024 * 1024) start = heap();
        // Measured while the stream is still open, before its end frees whatever a call holds.
        if (start !== undefined && received > 40 * 1024 * 1024 && growth === undefined) growth = heap() - start;
      }
      assert.ok(received > 40 * 1024 * 1024, `${received} bytes passed`);
      const passed = 32 * 1024 * 1024;
      assert.ok(
        growth !== undefined && growth < passed / 4,
        `heap grew ${Math.round((growth ?? NaN) / 1024 / 1024)} MiB while 32 MiB of deltas passed`,
      );
    });
  }
});

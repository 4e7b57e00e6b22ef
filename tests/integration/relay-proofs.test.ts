// Proofs of relay's promises through real upstream Gatehouses: multipart forms stream upstream while the client still sends, a client abort cuts the upstream stream at once, and a channel key is nowhere but the secret store.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { secretHint } from '../../shared/channels.ts';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { PATIENCE_MS } from '../helpers/eventually.ts';
import { filesUnder } from '../helpers/files-under.ts';
import { adminTokenOf, firstTokenOf, privateServeArgs, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries } from '../helpers/relay.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** Polls `check` every 10 ms until it answers something, for at most `ms` (a bound for a busy machine); undefined when it never did. */
async function poll<T>(check: () => T | undefined | Promise<T | undefined>, ms = PATIENCE_MS): Promise<T | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A TCP pass-through in front of `target` that notes whether `marker` has gone through it towards the target yet. */
async function recordingProxy(target: string, marker: Buffer) {
  const { hostname, port } = new URL(target);
  let seen = '';
  const state = { markerSeen: false };
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: hostname, port: Number(port) });
    client.on('data', (chunk: Buffer) => {
      // Only the last bytes are kept between chunks, enough to find a marker split across two of them.
      seen = (seen + chunk.toString('latin1')).slice(-(marker.length + chunk.length));
      if (seen.includes(marker.toString('latin1'))) state.markerSeen = true;
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('relay proofs with in-memory channels', () => {
  let up: TestGateway;
  let front: TestGateway;
  const channels: TestChannel[] = [];
  let wav: Buffer;

  before(async () => {
    up = await startGateway();
    front = await startGateway({ channels: memoryChannels(channels) });
    const speech = await new OpenAI({ baseURL: `${up.url}/v1`, apiKey: up.token, maxRetries: 0 }).audio.speech.create({
      model: 'sim-tts',
      voice: 'alloy',
      input: 'A sentence long enough to make a file of some size, sent in two pieces.',
      response_format: 'wav',
    });
    wav = Buffer.from(await speech.arrayBuffer());
  });
  after(async () => {
    await front.stop();
    await up.stop();
  });

  test('a transcription form reaches the upstream while the client is still sending it: streamed, not buffered', async () => {
    // The file's first bytes (after the WAV's 44-byte header) mark its arrival upstream.
    const proxy = await recordingProxy(up.url, wav.subarray(44, 76));
    channels.splice(0, channels.length, {
      name: 'up',
      kind: 'openai',
      baseUrl: `${proxy.url}/v1`,
      key: up.token,
      models: ['my-whisper=sim-whisper'],
    });
    try {
      const boundary = 'gatehouse-proof';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nmy-whisper\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
      const half = Math.floor(wav.length / 2);
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const sending = http.request(`${front.url}/v1/audio/transcriptions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${front.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        sending.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, text }));
        });
        sending.on('error', reject);
        // Piece one: the model and the first half of the file; the rest waits until the upstream has seen the file.
        sending.write(head);
        sending.write(wav.subarray(0, half));
        void poll(() => (proxy.state.markerSeen ? true : undefined)).then((seen) => {
          sending.write(wav.subarray(half));
          sending.end(`\r\n--${boundary}--\r\n`);
          if (!seen) reject(new Error('the upstream saw none of the file while the client was still sending it'));
        });
      });
      const { status, text } = await answer;
      assert.equal(status, 200, text);
      assert.ok(JSON.parse(text).text.length > 0, 'the whole file arrived and was transcribed');
    } finally {
      await proxy.close();
    }
  });

  test('a client that aborts a relayed stream shows as a cut stream in the upstream journal (100 ms budget, polled with a generous bound)', async (t) => {
    channels.splice(0, channels.length, {
      name: 'up',
      kind: 'openai',
      baseUrl: `${up.url}/v1`,
      key: up.token,
      models: ['my-gpt=sim-chat'],
      // 5 tokens a second, 200 ms between writes: the whole answer (about 60 writes) takes some 12 s, so "stopped early"
      // leaves a busy machine seconds to carry the abort upstream; a quiet one stops after the next write.
      headers: { 'x-gatehouse-pace': '5' },
    });
    const controller = new AbortController();
    const response = await fetch(`${front.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${front.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'my-gpt', stream: true, messages: [{ role: 'user', content: 'a very long story about the tides' }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    const abortedAt = Date.now();
    controller.abort();
    const entry = await poll(async () => {
      const [newest] = await journalEntries(up, { path: '/v1/chat/completions' });
      return newest?.timing?.cut ? newest : undefined;
    });
    assert.ok(entry, 'the upstream journal shows the stream cut');
    const endedAfterMs = entry.at + entry.durationMs - abortedAt;
    t.diagnostic(`the upstream stream ended ${endedAfterMs} ms after the client aborted (budget 100 ms)`);
    assert.ok(entry.timing.chunks < 40, `the upstream stopped early: ${entry.timing.chunks} writes of a paced answer of about 60`);
  });
});

describe('a channel key is nowhere but the secret store', () => {
  let upstream: TestGateway;
  let echo: http.Server;
  let echoUrl: string;
  let server: ServeProcess;
  let dataDir: string;
  let key: string;
  let adminToken: string;
  /** Every text the gateway answered or printed, to scan at the end. */
  const seen: { where: string; text: string }[] = [];
  const admin = async (method: string, route: string, body?: unknown) => {
    const answer = await request(`${server.url}/admin/api${route}`, method, { token: adminToken, ...(body !== undefined && { body }) });
    seen.push({ where: `admin API ${method} ${route}`, text: JSON.stringify(answer.body) });
    return answer;
  };
  const cli = async (...args: string[]) => {
    const result = await runCliAsync([...args, '--data-dir', dataDir, '--secrets', 'file'], {}, key);
    seen.push({ where: `gatehouse ${args.join(' ')}`, text: result.stdout + result.stderr });
    return result;
  };

  before(async () => {
    upstream = await startGateway();
    key = upstream.token;
    // An upstream that refuses the call and echoes the key in its error, as some providers' errors do (a 400: a refused key's 401 never reaches the caller).
    echo = http.createServer((incoming, answer) => {
      incoming.resume();
      const given = (incoming.headers['authorization'] ?? '').replace(/^Bearer /, '');
      answer.writeHead(400, { 'content-type': 'application/json' });
      answer.end(
        JSON.stringify({
          error: { message: `Incorrect API key provided: ${given}`, type: 'invalid_request_error', code: 'invalid_api_key' },
        }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as net.AddressInfo).port}`;
    dataDir = dirs.fresh();
    server = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
    adminToken = await adminTokenOf(server);
  });
  after(async () => {
    await server?.stop();
    await upstream?.stop();
    echo?.close();
  });

  test('after relayed calls, an echoing upstream error, failed tests and a dead channel: only secrets.json holds the key', async () => {
    const token = firstTokenOf(server);
    assert.equal(
      (
        await cli(
          'channel',
          'add',
          '--name',
          'up',
          '--kind',
          'openai',
          '--base-url',
          `${upstream.url}/v1`,
          '--models',
          'scan-gpt=sim-chat',
          '--key-stdin',
        )
      ).code,
      0,
    );
    const created = await admin('POST', '/channels', { name: 'echo', kind: 'openai', base_url: `${echoUrl}/v1`, models: 'echo-gpt', key });
    assert.equal(created.status, 200);
    const dead = await admin('POST', '/channels', {
      name: 'dead',
      kind: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      models: 'dead-gpt',
      key,
    });
    assert.equal(dead.status, 200);

    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'scan-gpt', messages: [{ role: 'user', content: 'hello' }] });
    seen.push({ where: 'chat answer', text: JSON.stringify(answer) });
    for await (const chunk of await openai.chat.completions.create({
      model: 'scan-gpt',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    })) {
      seen.push({ where: 'chat stream', text: JSON.stringify(chunk) });
    }
    const refused = await request(`${server.url}/v1/chat/completions`, 'POST', {
      token,
      body: { model: 'echo-gpt', messages: [{ role: 'user', content: 'x' }] },
    });
    seen.push({ where: 'the echoing upstream error, as the client got it', text: JSON.stringify(refused.body) });
    assert.equal(refused.status, 400, 'the upstream status reaches the client');
    assert.match(
      refused.body.error.message,
      new RegExp(`Incorrect API key provided: ${secretHint(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      'with the hint instead of the key',
    );
    const unreachable = await request(`${server.url}/v1/chat/completions`, 'POST', {
      token,
      body: { model: 'dead-gpt', messages: [{ role: 'user', content: 'x' }] },
    });
    seen.push({ where: 'dead channel error', text: JSON.stringify(unreachable.body) });
    assert.equal((await cli('channel', 'test', 'echo', '--model', 'echo-gpt')).code, 1);
    await admin('POST', `/channels/${created.body.id}/test`, { model: 'echo-gpt' });
    await admin('POST', `/channels/${dead.body.id}/test`, {});

    // What the owner can read back: channel list, the admin API's answers, the whole journal.
    assert.equal((await cli('channel', 'list', '--json')).code, 0);
    await cli('channel', 'list');
    for (const route of ['/status', '/channels', '/settings', '/tokens', '/prices']) await admin('GET', route);
    const { items } = (await admin('GET', '/journal?page_size=100')).body as { items: { id: number }[] };
    assert.ok(items.length >= 4, 'the calls are in the journal');
    for (const item of items) await admin('GET', `/journal/${item.id}`);

    const holding = (text: string) => text.includes(key);
    const scanDir = () =>
      filesUnder(dataDir)
        .filter(({ bytes }) => bytes.includes(key))
        .map(({ name }) => name);
    const whileRunning = scanDir();
    const files = (readdirSync(dataDir) as string[]).join(' ');
    assert.match(files, /gatehouse\.sqlite-wal/, 'the running database has its WAL, scanned too');
    await server.stop();
    seen.push({ where: 'server stdout', text: server.stdout.join('\n') }, { where: 'server stderr', text: server.stderr() });

    assert.deepEqual(whileRunning, ['secrets.json'], 'while running: only the secret store holds the key');
    assert.deepEqual(scanDir(), ['secrets.json'], 'after stopping: only the secret store holds the key');
    assert.deepEqual(
      seen.filter((item) => holding(item.text)).map((item) => item.where),
      [],
      'no answer, output or journal entry holds the key',
    );
    assert.ok(
      seen.some((item) => item.text.includes(secretHint(key))),
      'the hint stands in for it',
    );
  });
});

// Integration tests of the key scrub: an upstream that echoes the channel key (raw, JSON-escaped, percent-encoded, in base64) in headers, error bodies, answers, streams and realtime frames; the key reaches no caller, journal entry or file of the data dir.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { WebSocket, WebSocketServer } from 'ws';
import { secretHint } from '../../shared/channels.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream, type ReceivedRequest } from '../helpers/hostile-upstream.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';
import { escapedMix, percentMix, revealingFiles, reveals } from '../helpers/secret-encodings.ts';

/** The channel key, with the characters JSON (`\/`) and percent-encoding (`%2B`, `%2F`) treat specially. */
const KEY = 'sk-proj-Hx7/Qz+Lk_9fE2-MnB4vR8tYwP0aS3dG';
const HINT = secretHint(KEY);
/** The hint as a header carries it (no `…` in a header). */
const HEADER_HINT = HINT.replace('…', '...');
/** Where a body's text holds the key split across two writes, the second half JSON-escaped. */
const SPLIT = '@split@';

/** Headers that echo the key in every encoding, sent with every answer. */
const ECHOING_HEADERS = {
  'openai-organization': KEY,
  'x-request-id': `req_${KEY}`,
  'request-id': Buffer.from(`id:${KEY}`).toString('base64'),
  'anthropic-organization-id': percentMix(KEY),
  'x-ratelimit-limit-requests': escapedMix(KEY),
};

type Wire = 'openai' | 'anthropic' | 'gemini';

/** What the upstream is asked: the wire (from the path), the outcome (the model's last part: ok, 400 or 500), whether it streams and how. */
function askedOf(received: ReceivedRequest): { wire: Wire; model: string; outcome: string; stream: boolean; sse: boolean } {
  const url = new URL(received.url, 'http://x');
  const gemini = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
  if (gemini) {
    const stream = gemini[2] === 'streamGenerateContent';
    const model = decodeURIComponent(gemini[1]!);
    return { wire: 'gemini', model, outcome: model.split('-').at(-1)!, stream, sse: stream && url.searchParams.get('alt') === 'sse' };
  }
  const body = JSON.parse(received.body.toString('utf8')) as { model: string; stream?: boolean };
  const wire = url.pathname.endsWith('/v1/messages') ? 'anthropic' : 'openai';
  return { wire, model: body.model, outcome: body.model.split('-').at(-1)!, stream: body.stream === true, sse: body.stream === true };
}

/** A JSON text whose `@raw@` and `@escaped@` stand for the key as it is and JSON-escaped (so JSON.stringify does not escape the escapes). */
function withKey(value: unknown): string {
  return JSON.stringify(value).replaceAll('@raw@', KEY).replaceAll('@escaped@', escapedMix(KEY));
}

/** The text of an answer: the key raw and escaped. */
const SAID = 'said @raw@ and @escaped@';
/** The text of a streamed piece: the key split across two writes, its second half escaped. */
const STREAMED = `streamed ${KEY.slice(0, 15)}${SPLIT} ok`;

function errorBody(wire: Wire, status: number, message: string): string {
  if (wire === 'anthropic')
    return withKey({ type: 'error', error: { type: status === 400 ? 'invalid_request_error' : 'api_error', message } });
  if (wire === 'gemini') return withKey({ error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL' } });
  return withKey({ error: { message, type: status === 400 ? 'invalid_request_error' : 'server_error', code: null } });
}

function answerBody(wire: Wire, model: string): string {
  if (wire === 'anthropic')
    return withKey({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: SAID }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 5 },
    });
  if (wire === 'gemini')
    return withKey({
      candidates: [{ content: { role: 'model', parts: [{ text: SAID }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
      modelVersion: model,
    });
  return withKey({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: SAID }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  });
}

/** The events of a streamed answer (SSE, or Gemini's JSON array), as text with SPLIT where the key is cut. */
function streamBody(wire: Wire, model: string, sse: boolean): string {
  const data = (event: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${withKey(event)}\n\n`;
  if (wire === 'anthropic') {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null };
    return [
      data({ type: 'message_start', message: { ...message, usage: { input_tokens: 3, output_tokens: 0 } } }, 'message_start'),
      data({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      data({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: STREAMED } }, 'content_block_delta'),
      data({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      data(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
        'message_delta',
      ),
      data({ type: 'message_stop' }, 'message_stop'),
    ].join('');
  }
  if (wire === 'gemini') {
    const pieces = [
      { candidates: [{ content: { role: 'model', parts: [{ text: STREAMED }] }, index: 0 }], modelVersion: model },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '.' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
        modelVersion: model,
      },
    ];
    return sse ? pieces.map((piece) => data(piece)).join('') : `[${pieces.map((piece) => withKey(piece)).join(',\r\n')}]`;
  }
  const chunk = (delta: object, finish: string | null, usage?: object) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage && { usage }),
  });
  return [
    data(chunk({ role: 'assistant', content: '' }, null)),
    data(chunk({ content: STREAMED }, null)),
    data(chunk({}, 'stop', { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })),
    'data: [DONE]\n\n',
  ].join('');
}

/** Writes `text` in two pieces cut at SPLIT, the second starting with the key's second half JSON-escaped; the first is flushed before the second is written. */
async function writeSplit(response: ServerResponse, text: string): Promise<void> {
  const [head, tail] = text.split(SPLIT) as [string, string];
  await new Promise<void>((resolve) => response.write(head, () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  response.end(`${escapedMix(KEY.slice(15))}${tail}`);
}

/**
 * The hostile upstream: every answer echoes the key in its headers and body, as the model's last part says (ok, 400, 500).
 * Its passed-on client error is a 400: a refused key (401) never reaches the caller (see relay-retry-hint.test.ts).
 */
async function answer(received: ReceivedRequest, response: ServerResponse): Promise<void> {
  const { wire, model, outcome, stream, sse } = askedOf(received);
  if (outcome === '400' || outcome === '500') {
    const status = Number(outcome);
    const message = status === 400 ? 'Incorrect API key provided: @escaped@' : 'upstream broke with key @raw@ and %KEY%';
    response.writeHead(status, { ...ECHOING_HEADERS, 'content-type': 'application/json' });
    response.end(errorBody(wire, status, message).replace('%KEY%', percentMix(KEY)));
    return;
  }
  const type = !stream ? 'application/json' : sse ? 'text/event-stream' : 'application/json';
  response.writeHead(200, { ...ECHOING_HEADERS, 'content-type': type });
  if (!stream) response.end(answerBody(wire, model));
  else await writeSplit(response, streamBody(wire, model, sse));
}

/** A realtime upstream whose session sends the key in text frames (raw, escaped), a binary frame and its close reason. */
async function echoingRealtime() {
  const server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) => {
    socket.send(JSON.stringify({ type: 'session.created', event_id: 'e1', session: { model: 'rt-model' } }));
    socket.send(withKey({ type: 'conversation.item.created', event_id: 'e2', item: { content: [{ type: 'text', text: SAID }] } }));
    socket.send(Buffer.from(`binary ${KEY}`), { binary: true });
    socket.close(4000, `bye ${KEY}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a channel key an upstream echoes in any encoding', { timeout: 120_000 }, () => {
  let upstream: HostileUpstream;
  let realtime: Awaited<ReturnType<typeof echoingRealtime>>;
  let gw: TestGateway;
  /** Everything the callers got (status, headers, body, SDK results, frames), to scan at the end. */
  const seen: { where: string; text: string }[] = [];
  let stopped = false;

  /** One call on the wire: its status, headers and body kept, and each checked to hold the hint and not the key. */
  const wire = async (where: string, path: string, body: unknown) => {
    const response = await fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    const text = await response.text();
    seen.push({ where: `${where}: headers`, text: headers }, { where: `${where}: body`, text });
    assert.equal(reveals(headers, KEY), false, `${where}: no key in the headers\n${headers}`);
    assert.match(headers, /^openai-organization: sk-\.\.\.S3dG$/m, `${where}: the echoing header carries the hint`);
    assert.equal(reveals(text, KEY), false, `${where}: no key in the body\n${text}`);
    assert.ok(text.includes(HINT), `${where}: the hint stands in for the key\n${text}`);
    return { status: response.status, text };
  };
  const sdk = (where: string, value: unknown) => {
    const text = JSON.stringify(value);
    seen.push({ where, text });
    assert.equal(reveals(text, KEY), false, `${where}: no key in what the SDK gave\n${text}`);
    return text;
  };

  before(async () => {
    upstream = await hostileUpstream(answer);
    realtime = await echoingRealtime();
    const channel = { key: KEY, baseUrl: upstream.url };
    gw = await startGateway({
      channels: memoryChannels([
        { ...channel, name: 'openai', kind: 'openai', baseUrl: `${upstream.url}/v1`, models: ['oa-ok', 'oa-400', 'oa-500'] },
        { ...channel, name: 'anthropic', kind: 'anthropic', models: ['an-ok', 'an-400', 'an-500', 'cross-ok'] },
        { ...channel, name: 'gemini', kind: 'gemini', models: ['gm-ok', 'gm-400', 'gm-500'] },
        { ...channel, name: 'realtime', kind: 'openai', baseUrl: `${realtime.url}/v1`, models: ['rt-model'] },
      ]),
    });
  });
  after(async () => {
    if (!stopped) await gw?.stop();
    await upstream?.close();
    await realtime?.stop();
  });

  test('OpenAI: headers of a 200, a 400 and a 500, an escaped error body, a JSON answer and a split stream', async () => {
    const chat = (model: string, stream = false) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal((await wire('openai 400', '/v1/chat/completions', chat('oa-400'))).status, 400);
    assert.equal((await wire('openai 500', '/v1/chat/completions', chat('oa-500'))).status, 500);
    await wire('openai 200', '/v1/chat/completions', chat('oa-ok'));
    await wire('openai stream', '/v1/chat/completions', chat('oa-ok', true));
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const { data, response } = await openai.chat.completions
      .create({ model: 'oa-ok', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    assert.equal(data.choices[0]!.message.content, `said ${HINT} and ${HINT}`);
    sdk('openai SDK answer', { data, headers: Object.fromEntries(response.headers) });
    let streamed = '';
    for await (const chunk of await openai.chat.completions.create({
      model: 'oa-ok',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    })) {
      sdk('openai SDK stream', chunk);
      streamed += chunk.choices[0]?.delta.content ?? '';
    }
    assert.equal(streamed, `streamed ${HINT} ok`);
    const refused = await openai.chat.completions
      .create({ model: 'oa-400', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    sdk('openai SDK 400', { message: refused.message, error: refused.error, headers: Object.fromEntries(refused.headers ?? []) });
    assert.match(refused.message, new RegExp(`Incorrect API key provided: ${HINT}`));
  });

  test('Anthropic: the same through /v1/messages and its SDK', async () => {
    const message = (model: string, stream = false) => ({ model, stream, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal((await wire('anthropic 400', '/v1/messages', message('an-400'))).status, 400);
    assert.equal((await wire('anthropic 500', '/v1/messages', message('an-500'))).status, 500);
    await wire('anthropic 200', '/v1/messages', message('an-ok'));
    await wire('anthropic stream', '/v1/messages', message('an-ok', true));
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0 });
    const answered = await anthropic.messages.create(message('an-ok') as Anthropic.MessageCreateParamsNonStreaming);
    assert.deepEqual(answered.content, [{ type: 'text', text: `said ${HINT} and ${HINT}` }]);
    sdk('anthropic SDK answer', answered);
    const stream = anthropic.messages.stream(message('an-ok') as Anthropic.MessageCreateParamsNonStreaming);
    for await (const event of stream) sdk('anthropic SDK stream', event);
    assert.deepEqual((await stream.finalMessage()).content, [{ type: 'text', text: `streamed ${HINT} ok` }]);
  });

  test('Gemini: the same through generateContent, an SSE stream and the JSON array stream, and its SDK', async () => {
    const contents = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    assert.equal((await wire('gemini 400', '/v1beta/models/gm-400:generateContent', contents)).status, 400);
    assert.equal((await wire('gemini 500', '/v1beta/models/gm-500:generateContent', contents)).status, 500);
    await wire('gemini 200', '/v1beta/models/gm-ok:generateContent', contents);
    await wire('gemini SSE stream', '/v1beta/models/gm-ok:streamGenerateContent?alt=sse', contents);
    const array = await wire('gemini JSON array stream', '/v1beta/models/gm-ok:streamGenerateContent', contents);
    assert.equal((JSON.parse(array.text) as unknown[]).length, 2, 'the JSON array stream arrives whole');
    const gemini = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    const answered = await gemini.models.generateContent({ model: 'gm-ok', contents: 'hi' });
    assert.equal(answered.text, `said ${HINT} and ${HINT}`);
    sdk('gemini SDK answer', answered);
    let streamed = '';
    for await (const chunk of await gemini.models.generateContentStream({ model: 'gm-ok', contents: 'hi' })) {
      sdk('gemini SDK stream', chunk);
      streamed += chunk.text ?? '';
    }
    assert.equal(streamed, `streamed ${HINT} ok.`);
  });

  test('a translated chat: the OpenAI SDK for a model only the Anthropic channel serves', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const answered = await openai.chat.completions.create({ model: 'cross-ok', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answered.choices[0]!.message.content, `said ${HINT} and ${HINT}`, 'the escaped key was scrubbed before it was parsed');
    sdk('translated answer', answered);
    let streamed = '';
    for await (const chunk of await openai.chat.completions.create({
      model: 'cross-ok',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    })) {
      sdk('translated stream', chunk);
      streamed += chunk.choices[0]?.delta.content ?? '';
    }
    assert.equal(streamed, `streamed ${HINT} ok`);
  });

  test('realtime: the upstream text and binary frames and its close reason', async () => {
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, {
      headers: { authorization: `Bearer ${gw.token}` },
    });
    const frames: string[] = [];
    socket.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
    const { code, reason } = await new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (closeCode, closeReason) => resolve({ code: closeCode, reason: closeReason.toString() })),
    );
    frames.forEach((frame, index) => seen.push({ where: `realtime frame ${index}`, text: frame }));
    seen.push({ where: 'realtime close reason', text: reason });
    assert.equal(code, 4000);
    assert.equal(reason, `bye ${HINT}`);
    assert.equal(frames.length, 3, frames.join('\n'));
    assert.equal(frames[2], `binary ${HINT}`);
    assert.equal(JSON.parse(frames[1]!).item.content[0].text, `said ${HINT} and ${HINT}`);
    for (const frame of frames) assert.equal(reveals(frame, KEY), false, frame);
  });

  test('afterwards no answer, journal entry or file of the data dir (WAL included) holds the key in any encoding', async () => {
    const admin = (route: string) => request(`${gw.url}/admin/api${route}`, 'GET', { token: gw.gateway.adminToken });
    // The journal writes in batches: wait (generously) until it holds every call the upstream answered.
    const calls = upstream.requests.length;
    let items: { id: number }[] = [];
    for (let tries = 0; tries < 600 && items.length < calls; tries++) {
      items = ((await admin('/journal?page_size=100')).body as { items: { id: number }[] }).items;
      if (items.length < calls) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(items.length >= calls, `the journal holds the ${calls} calls (${items.length})`);
    seen.push({ where: 'journal list', text: JSON.stringify(items) });
    for (const item of items)
      seen.push({ where: `journal entry ${item.id}`, text: JSON.stringify((await admin(`/journal/${item.id}`)).body) });
    assert.ok(
      seen.some((item) => item.where.startsWith('journal entry') && item.text.includes(HEADER_HINT)),
      'the journal recorded the scrubbed headers',
    );

    const files = revealingFiles(gw.dataDir, KEY);
    assert.match(readdirSync(gw.dataDir).join(' '), /gatehouse\.sqlite-wal/, 'the running database has its WAL, scanned too');
    stopped = true;
    await gw.stop({ keepData: true });
    const afterStop = revealingFiles(gw.dataDir, KEY);
    rmSync(gw.dataDir, { recursive: true, force: true });
    assert.deepEqual(files, [], 'while running, no file holds the key');
    assert.deepEqual(afterStop, [], 'after stopping, no file holds the key');
    assert.deepEqual(
      seen.filter((item) => reveals(item.text, KEY)).map((item) => item.where),
      [],
      'no answer, frame or journal entry holds the key',
    );
  });
});

describe('a service channel key an upstream echoes in any encoding', { timeout: 60_000 }, () => {
  const dirs = tempDirs();
  let upstream: HostileUpstream;
  let gw: TestGateway;
  const admin = (method: string, url: string, body?: unknown) =>
    request(`${gw.url}/admin/api${url}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });

  before(async () => {
    // A platform that takes a group (its id holds the key, escaped), refuses an asset and a channel test naming the key percent-encoded.
    upstream = await hostileUpstream((received, response) => {
      response.writeHead(received.url.startsWith('/v1/portrait/groups?') ? 401 : 200, { 'content-type': 'application/json' });
      if (received.method === 'POST' && received.url === '/v1/portrait/groups')
        response.end(withKey({ success: true, data: { group_id: 'grp_@escaped@' } }));
      else response.end(withKey({ success: false, message: 'Incorrect key %KEY%' }).replace('%KEY%', percentMix(KEY)));
    });
    const dataDir = dirs.fresh();
    gw = await startGateway({ dataDir, secrets: openFileStore(dataDir), refreshIntervalMs: 3_600_000 });
  });
  after(async () => {
    await gw?.stop({ keepData: true });
    await upstream?.close();
    dirs.removeAll();
  });

  test('a portrait answer, a portrait refusal and a channel test: the hint, never the key, in answers and data dir files', async () => {
    const added = await admin('POST', '/channels', {
      name: 'platform',
      kind: 'platform',
      base_url: upstream.url,
      models: 'p-3d',
      key: KEY,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const portrait = portraitClient(gw.url, gw.token);
    const group = await portrait.createGroup({ name: 'faces', description: 'd' });
    const groupId = dataOf(group).group_id as string;
    const refused = await portrait.createAsset({ group_id: groupId, url: 'https://cdn.example.com/a.png', asset_type: 'Image', name: 'a' });
    const tested = await admin('POST', `/channels/${added.body.id}/test`, {});
    const groups = await admin('GET', '/channels');
    const seen = [group, refused, tested, groups].map((answer) => JSON.stringify(answer.body));
    assert.equal(tested.body.ok, false);
    assert.ok(tested.body.message.includes(HINT), tested.body.message);
    assert.ok(JSON.stringify(refused.body).includes(HINT), JSON.stringify(refused.body));
    assert.deepEqual(
      seen.filter((text) => reveals(text, KEY)),
      [],
      'no answer holds the key',
    );
    const stored = gw.gateway.context.db.prepare('SELECT * FROM portrait_remote_groups').all();
    assert.ok(JSON.stringify(stored).includes(`grp_${HINT}`), `the remote group id is kept with the hint: ${JSON.stringify(stored)}`);
    assert.deepEqual(
      revealingFiles(gw.dataDir, KEY).filter((file) => file !== 'secrets.json'),
      [],
      'only the secret store holds the key',
    );
  });
});

// Integration tests of the key scrub: an upstream that echoes the channel key (raw, JSON-escaped, percent-encoded, in base64) in headers, error bodies, answers, streams and realtime frames; the key reaches no caller, journal entry or file of the data dir.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { WebSocket } from 'ws';
import { secretHint } from '../../shared/channels.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';
import { echoingAnswer, echoingRealtime, KEY, withKey } from '../helpers/echoing-upstream.ts';
import { percentMix, revealingFiles, reveals } from '../helpers/secret-encodings.ts';

/** The hint of the echoed key. */
const HINT = secretHint(KEY);
/** The hint as a header carries it (no `…` in a header). */
const HEADER_HINT = HINT.replace('…', '...');

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
    upstream = await hostileUpstream(echoingAnswer);
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

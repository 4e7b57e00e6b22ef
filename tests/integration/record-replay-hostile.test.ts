// Cassettes under load and on a hostile path: forty calls at once recorded and replayed each once, a folder that cannot be written reported without breaking a call, a service channel's key kept out of the 3D cassette and its file.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { CASSETTE_FORMAT, type Cassette, type HttpCassette, type RealtimeCassette, type Task3dCassette } from '../../shared/cassette.ts';
import { cassetteFileName } from '../../shared/cassette-names.ts';
import { normalRequest } from '../../electron/gateway/providers/replay/normal.ts';
import { realtimeCall } from '../../electron/gateway/providers/replay/realtime-replay.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { base64Middles, escapedMix, percentMix, revealingFiles, reveals } from '../helpers/secret-encodings.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';
import { openRaw } from '../helpers/realtime.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

const KEY = 'sk-hostile-test-key-0123456789abcdef';
const CALLS = 40;

/** An upstream whose every chat answer is numbered in the order the calls arrived, and whose speech is binary. */
async function countingUpstream(): Promise<HostileUpstream> {
  let count = 0;
  return hostileUpstream((received, response) => {
    if (received.url.endsWith('/audio/speech')) {
      response.writeHead(200, { 'content-type': 'audio/wav' });
      response.end(Buffer.from('RIFF-binary-speech-bytes'));
      return;
    }
    const { model } = JSON.parse(received.body.toString('utf8')) as { model: string };
    count += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(chatCompletion(model, `answer ${count}`)));
  });
}

const chat = async (gateway: TestGateway, content: string) => {
  const answer = await request(`${gateway.url}/v1/chat/completions`, 'POST', {
    token: gateway.token,
    body: { model: 'gpt-many', messages: [{ role: 'user', content }] },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.choices[0].message.content as string;
};

const cassetteFiles = (dir: string) => readdirSync(dir).filter((file) => file.endsWith('.json'));
const read = <T>(dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T;

describe('forty calls at once', { timeout: 120_000 }, () => {
  test('under --record forty identical calls are forty cassettes, sequences 1 to 40; under --replay each replays once', async () => {
    const upstream = await countingUpstream();
    const cassettes = dirs.fresh();
    const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: KEY, models: ['*'] }]);
    const front = await startGateway({ channels, record: { dir: cassettes } });
    let answers: string[];
    try {
      answers = await Promise.all(Array.from({ length: CALLS }, () => chat(front, 'the same question')));
      await eventually(() => cassetteFiles(cassettes).length === CALLS, `${CALLS} cassettes saved`);
    } finally {
      await front.stop();
      await upstream.close();
    }
    assert.equal(new Set(answers).size, CALLS, 'the upstream answered each call its own way');
    const recorded = cassetteFiles(cassettes).map((file) => read<HttpCassette>(cassettes, file));
    assert.deepEqual(
      recorded.map((cassette) => cassette.sequence).sort((a, b) => a - b),
      Array.from({ length: CALLS }, (_, index) => index + 1),
    );
    const texts = recorded.map((cassette) => {
      const body = cassette.response.body!;
      assert.ok('text' in body, 'each cassette is whole JSON text');
      return (JSON.parse(body.text) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
    });
    assert.deepEqual([...texts].sort(), [...answers].sort(), 'every answer is in exactly one cassette');

    const replay = await startGateway({ replay: { dir: cassettes, miss: 'error', speed: 0 } });
    try {
      const replayed = await Promise.all(Array.from({ length: CALLS }, () => chat(replay, 'the same question')));
      assert.deepEqual([...replayed].sort(), [...answers].sort(), 'each recorded answer replayed once: none twice, none lost');
      assert.equal(await chat(replay, 'the same question'), texts[recorded.findIndex((cassette) => cassette.sequence === CALLS)]);
    } finally {
      await replay.stop();
    }
  });

  test('under --replay-miss relay forty different misses at once are each relayed and recorded once', async () => {
    const upstream = await countingUpstream();
    const cassettes = dirs.fresh();
    const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: KEY, models: ['*'] }]);
    const gateway = await startGateway({ channels, replay: { dir: cassettes, miss: 'relay', speed: 0 } });
    try {
      const questions = Array.from({ length: CALLS }, (_, index) => `question number ${index}`);
      await Promise.all(questions.map((question) => chat(gateway, question)));
      await eventually(() => cassetteFiles(cassettes).length === CALLS, `${CALLS} cassettes saved`);
      assert.equal(upstream.requests.length, CALLS);
      const prompts = cassetteFiles(cassettes).map(
        (file) => (read<HttpCassette>(cassettes, file).request.body as { messages: { content: string }[] }).messages[0]!.content,
      );
      assert.deepEqual(prompts.sort(), [...questions].sort());
      // Asked again, each replays: the upstream sees nothing more.
      await Promise.all(questions.map((question) => chat(gateway, question)));
      assert.equal(upstream.requests.length, CALLS);
    } finally {
      await gateway.stop();
      await upstream.close();
    }
  });
});

describe('an answer cut short', { timeout: 60_000 }, () => {
  test('an upstream that breaks mid-stream, or a client that leaves mid-stream: no cassette is saved as if whole', async () => {
    const piece = (content: string) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-cut', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const upstream = await hostileUpstream((received, response) => {
      const { messages } = JSON.parse(received.body.toString('utf8')) as { messages: { content: string }[] };
      const asked = messages[0]!.content;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (asked === 'whole') return void response.end(`${piece('all the words')}data: [DONE]\n\n`);
      response.write(piece('the first words'));
      if (asked === 'break') response.socket?.destroy();
      // 'leave': the stream never ends; the client leaves.
    });
    const cassettes = dirs.fresh();
    const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: KEY, models: ['*'] }]);
    const front = await startGateway({ channels, record: { dir: cassettes } });
    const stream = (content: string, signal?: AbortSignal) =>
      fetch(`${front.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${front.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-cut', stream: true, messages: [{ role: 'user', content }] }),
        ...(signal && { signal }),
      });
    try {
      const broken = await stream('break');
      const text = await broken.text().catch((error: unknown) => String(error));
      assert.ok(!text.includes('[DONE]'), text);
      const leaving = new AbortController();
      const left = await stream('leave', leaving.signal);
      const reader = left.body!.getReader();
      assert.match(new TextDecoder().decode((await reader.read()).value), /the first words/);
      leaving.abort();
      // A whole call after them: once its cassette is saved, a cut one would have been too.
      assert.match(await (await stream('whole')).text(), /\[DONE\]/);
      await eventually(() => cassetteFiles(cassettes).length >= 1, 'the whole call recorded');
      await eventually(() => upstream.requests.length === 3, 'every call reached the upstream');
    } finally {
      await front.stop();
      await upstream.close();
    }
    const recorded = cassetteFiles(cassettes).map((file) => read<HttpCassette>(cassettes, file));
    assert.deepEqual(
      recorded.map((cassette) => (cassette.request.body as { messages: { content: string }[] }).messages[0]!.content),
      ['whole'],
      'only the whole stream is a cassette',
    );
  });
});

describe('a recording that cannot be written', { timeout: 60_000 }, () => {
  test('a file where the folder was: each call still gets its whole answer, each failed save is reported', async () => {
    const upstream = await countingUpstream();
    const cassettes = path.join(dirs.fresh(), 'cassettes');
    const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: KEY, models: ['*'] }]);
    const front = await startGateway({ channels, record: { dir: cassettes } });
    const reported: unknown[] = [];
    front.gateway.events.on('error', (error) => reported.push(error));
    try {
      rmSync(cassettes, { recursive: true });
      writeFileSync(cassettes, 'not a folder');
      assert.equal(await chat(front, 'a question'), 'answer 1');
      const speech = await fetch(`${front.url}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${front.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tts-up', voice: 'alloy', input: 'hello', response_format: 'wav' }),
      });
      assert.equal(speech.status, 200);
      assert.equal(Buffer.from(await speech.arrayBuffer()).toString(), 'RIFF-binary-speech-bytes', 'the binary answer arrives whole');
      await eventually(() => reported.length >= 2, 'both failed saves reported');
      for (const error of reported) assert.match(String(error), /ENOTDIR|not a directory/i);
      // The gateway goes on, and records again once the folder is back.
      rmSync(cassettes);
      mkdirSync(cassettes);
      assert.equal(await chat(front, 'a question'), 'answer 2');
      await eventually(() => cassetteFiles(cassettes).length === 1, 'the next call recorded');
    } finally {
      await front.stop();
      await upstream.close();
    }
  });
});

describe('what a cassette hides is hidden in its file name too', { timeout: 60_000 }, () => {
  test('a prompt carrying the channel key or a redacted value: the file is named without either', async () => {
    const upstream = await countingUpstream();
    const cassettes = dirs.fresh();
    const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${upstream.url}/v1`, key: KEY, models: ['*'] }]);
    const front = await startGateway({ channels, record: { dir: cassettes, redact: ['messages[0].content'] } });
    try {
      await chat(front, `${KEY} please`);
      await chat(front, 'private words here');
      await eventually(() => cassetteFiles(cassettes).length === 2, 'two cassettes saved');
    } finally {
      await front.stop();
      await upstream.close();
    }
    const names = readdirSync(cassettes);
    assert.deepEqual(
      names.filter((name) => reveals(name, KEY) || name.includes('private-words')),
      [],
      names.join(', '),
    );
    assert.deepEqual(revealingFiles(cassettes, KEY), []);
  });
});

describe('a service channel key', { timeout: 60_000 }, () => {
  test('portrait reviews and a 3D task on a platform channel: no cassette or blob holds its key in any encoding', async () => {
    // The platform echoes its key in the verdicts and in the result file, raw and encoded; the caller's prompt and asset name
    // carry it too (pasted by mistake).
    const echoed = [KEY, escapedMix(KEY), percentMix(KEY), ...base64Middles(KEY).map((middle) => `xx${middle}xx`)].join(' | ');
    let assets = 0;
    const upstream = await hostileUpstream((received, response) => {
      const url = received.url;
      const task = (status: string, extra: object = {}) => ({
        task_id: 'task-1',
        status,
        progress: status === 'SUCCESS' ? '100%' : '10%',
        usage: { input_tokens: 4, output_tokens: 9 },
        finish_time: 0,
        files: [],
        ...extra,
      });
      const envelope = (data: object) => JSON.stringify({ success: true, message: '', data });
      response.writeHead(200, { 'content-type': url.endsWith('.glb') ? 'model/gltf-binary' : 'application/json' });
      if (url === '/v1/portrait/groups') response.end(envelope({ group_id: 'group-1' }));
      else if (url === '/v1/portrait/assets') response.end(envelope({ asset_id: `asset-${++assets}` }));
      else if (url === '/v1/portrait/assets/asset-1')
        response.end(envelope({ status: 'Active', resolved_url: `https://cdn.example.com/${encodeURIComponent(echoed)}` }));
      else if (url === '/v1/portrait/assets/asset-2') response.end(envelope({ status: 'Failed', failure_reason: `refused: ${echoed}` }));
      else if (received.method === 'POST') response.end(JSON.stringify(task('SUBMITTED')));
      else if (url.endsWith('.glb')) response.end(Buffer.from(`glTF ${echoed}`));
      else response.end(JSON.stringify(task('SUCCESS', { files: [{ url: '/files/task-1.glb', format: 'glb' }] })));
    });
    const cassettes = dirs.fresh();
    const dataDir = dirs.fresh();
    const front = await startGateway({ dataDir, secrets: openFileStore(dataDir), record: { dir: cassettes } });
    try {
      const channel = { name: 'hostile-platform', kind: 'platform', base_url: upstream.url, models: 'remote-3d', key: KEY };
      const added = await request(`${front.url}/admin/api/channels`, 'POST', { token: front.gateway.adminToken, body: channel });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const portrait = portraitClient(front.url, front.token);
      const groupId = dataOf(await portrait.createGroup({ name: 'faces' })).group_id;
      for (const url of ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png']) {
        const asset = dataOf(await portrait.createAsset({ group_id: groupId, url, asset_type: 'Image', name: `face ${KEY}` }));
        await eventually(async () => {
          const status = dataOf(await portrait.getAsset(asset.asset_id)).status;
          return (status === 'Active' || status === 'Failed') && status;
        }, 'the review ends');
      }
      const call = (method: string, url: string, body?: unknown) =>
        request(`${front.url}${url}`, method, { token: front.token, ...(body !== undefined && { body }) });
      const created = await call('POST', '/v1/3d/generations', { model: 'remote-3d', prompt: `a teapot, key ${KEY}`, format: 'glb' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const done = await eventually(async () => {
        const task = (await call('GET', `/v1/3d/generations/${created.body.task_id}`)).body;
        return task.status === 'SUCCESS' && task;
      }, 'the task ends');
      assert.equal(done.files.length, 1);
      await eventually(() => cassetteFiles(cassettes).length === 3, 'two portrait cassettes and a 3D one saved');
    } finally {
      await front.stop();
      await upstream.close();
    }
    const saved = cassetteFiles(cassettes).map((file) => read<Cassette>(cassettes, file));
    assert.deepEqual(saved.map((cassette) => cassette.kind).sort(), ['portrait', 'portrait', 'task3d']);
    const task = saved.find((cassette): cassette is Task3dCassette => cassette.kind === 'task3d')!;
    assert.equal(task.files.length, 1, 'the result file is a blob beside the cassette');
    assert.deepEqual(revealingFiles(cassettes, KEY), []);
    assert.deepEqual(
      readdirSync(cassettes).filter((name) => reveals(name, KEY)),
      [],
      'no file name shows the key either',
    );
  });
});

describe('realtime sessions of one model', { timeout: 60_000 }, () => {
  test('a session replays the recording its client frames match, whichever of the model sequence it is', async () => {
    const cassettes = dirs.fresh();
    const model = 'rt-many';
    const request = normalRequest(realtimeCall(model));
    const ask = (word: string) =>
      JSON.stringify({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: word }] },
      });
    const sessionOf = (word: string, sequence: number): RealtimeCassette => ({
      format: CASSETTE_FORMAT,
      kind: 'realtime',
      recording: { recordedAt: '2026-11-26T10:00:00.000+00:00', mode: 'relay', channel: 'up', protocol: 'realtime' },
      request,
      frames: [
        { atMs: 0, from: 'upstream', text: JSON.stringify({ type: 'session.created', event_id: 'ev_1', session: { model } }) },
        { atMs: 10, from: 'client', text: ask(word) },
        {
          atMs: 20,
          from: 'upstream',
          text: JSON.stringify({ type: 'conversation.item.created', event_id: 'ev_2', item: { id: `item_for_${word}` } }),
        },
      ],
      sequence,
    });
    for (const [index, word] of ['alpha', 'beta'].entries())
      writeFileSync(
        path.join(cassettes, cassetteFileName(request.key, model, undefined, index + 1)),
        JSON.stringify(sessionOf(word, index + 1), null, 2),
      );
    const replay = await startGateway({ replay: { dir: cassettes, miss: 'error', speed: 0 } });
    try {
      // The first session would play sequence 1 (alpha), the second sequence 2 (beta): each asks for the other one.
      for (const word of ['beta', 'alpha']) {
        const socket = await openRaw(`${replay.url.replace('http', 'ws')}/v1/realtime?model=${model}`, {
          headers: { authorization: `Bearer ${replay.token}` },
        });
        await socket.next('session.created');
        socket.send(ask(word));
        const answered = await socket.next((event) => event.type === 'conversation.item.created' || event.type === 'error');
        assert.equal(answered.item?.id, `item_for_${word}`, JSON.stringify(answered));
        socket.socket.close(1000);
        await socket.closing;
      }
    } finally {
      await replay.stop();
    }
  });
});

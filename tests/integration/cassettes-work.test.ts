// Integration tests of cassettes for realtime sessions, portrait reviews and 3D tasks: recorded through a front gateway relaying to a second Gatehouse, then replayed with that upstream stopped.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { manualClock, type ManualClock } from '../helpers/clock.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';
import { openRaw } from '../helpers/realtime.ts';
import { usageRows } from '../helpers/relay.ts';

/** The upstream's review and 3D times (on its manual clock): both are crossed by advancing the clocks, never by waiting. */
const REVIEW_MS = 10_000;
const TASK_MS = 20_000;

/** What a client saw of one realtime text turn (docs/realtime.md): every text frame as it came, and the usage of its response. */
interface Turn {
  frames: string[];
  usage: { input_tokens: number; output_tokens: number };
}

/** A realtime text turn on `gw`: session.update, a user message, response.create, until response.done; then the client closes. */
async function textTurn(gw: TestGateway): Promise<Turn> {
  const socket = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
    headers: { authorization: `Bearer ${gw.token}` },
  });
  const frames: string[] = [];
  socket.socket.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
  await socket.next('session.created');
  socket.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.' } });
  await socket.next('session.updated');
  // A second of silence (PCM16, 24 kHz), sent and cleared: a frame big enough to be kept as a blob.
  socket.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(48_000).toString('base64') });
  socket.send({ type: 'input_audio_buffer.clear' });
  await socket.next('input_audio_buffer.cleared');
  socket.send({
    type: 'conversation.item.create',
    item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me about lighthouses.' }] },
  });
  socket.send({ type: 'response.create' });
  const done = await socket.next('response.done');
  socket.socket.close(1000);
  await socket.closing;
  return { frames, usage: done.response.usage };
}

/** What the portrait client saw of one asset: its status at creation, at the first query, and after the review time. */
type Course = { statuses: string[]; resolvedUrl: string | null; failureReason: string | null };

describe('cassettes of realtime sessions, portrait reviews and 3D tasks', { timeout: 120_000 }, () => {
  const dirs = tempDirs();
  let cassettes: string;
  let upstream: TestGateway;
  let upstreamClock: ManualClock;
  let channelKey: string;
  const recorded: { turn?: Turn; courses?: Course[]; task?: { seen: string[][]; file: Buffer; usage: unknown } } = {};

  /** Moves `gw`'s clock through the testing API (and the upstream's own clock, while it runs). */
  const advance = async (gw: TestGateway, ms: number) => {
    const moved = await request(`${gw.url}/admin/api/clock/advance`, 'POST', { token: gw.gateway.adminToken, body: { ms } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
  };

  /** Two assets, one Active and one Failed, queried before and after the review time. */
  const reviewTwo = async (gw: TestGateway, alsoAdvance?: () => void): Promise<Course[]> => {
    const portrait = portraitClient(gw.url, gw.token);
    const groupId = dataOf(await portrait.createGroup({ name: 'Spokespeople' })).group_id;
    const urls = ['https://cdn.example.com/anna.png', 'https://cdn.example.com/reject/bob.png'];
    const assets = [];
    for (const url of urls) assets.push(dataOf(await portrait.createAsset({ group_id: groupId, url, asset_type: 'Image', name: 'face' })));
    const statuses = assets.map((asset) => [asset.status]);
    for (const [index, asset] of assets.entries()) statuses[index]!.push(dataOf(await portrait.getAsset(asset.asset_id)).status);
    alsoAdvance?.();
    await advance(gw, REVIEW_MS);
    const courses: Course[] = [];
    for (const [index, asset] of assets.entries()) {
      const done = dataOf(await portrait.getAsset(asset.asset_id));
      courses.push({ statuses: [...statuses[index]!, done.status], resolvedUrl: done.resolved_url, failureReason: done.failure_reason });
    }
    return courses;
  };

  /** A 3D task queried at its creation, halfway and at its end; its file downloaded from `gw`. */
  const taskCourse = async (gw: TestGateway, alsoAdvance?: (ms: number) => void) => {
    const call = (method: string, url: string, body?: unknown) =>
      request(`${gw.url}${url}`, method, { token: gw.token, ...(body !== undefined && { body }) });
    const created = await call('POST', '/v1/3d/generations', { model: 'remote-3d', prompt: 'a small ceramic teapot', format: 'glb' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const seen = [[created.body.status, created.body.progress]];
    let task = created.body;
    for (const step of [TASK_MS / 2, TASK_MS / 2]) {
      alsoAdvance?.(step);
      await advance(gw, step);
      task = (await call('GET', `/v1/3d/generations/${created.body.task_id}`)).body;
      seen.push([task.status, task.progress]);
    }
    assert.equal(task.files.length, 1, JSON.stringify(task));
    const file = Buffer.from(await (await fetch(task.files[0].url)).arrayBuffer());
    return { seen, file, usage: task.usage };
  };

  before(async () => {
    cassettes = dirs.fresh();
    upstreamClock = manualClock();
    upstream = await startGateway({ clock: upstreamClock, simReviewMs: REVIEW_MS, sim3dMs: TASK_MS });
    channelKey = upstream.token;
  });
  let upstreamStopped = false;
  after(async () => {
    if (!upstreamStopped) await upstream.stop();
    dirs.removeAll();
  });

  test('a recording run relays a realtime turn, two portrait reviews and a 3D task to the upstream and saves each as a cassette', async () => {
    const dataDir = dirs.fresh();
    const front = await startGateway({
      dataDir,
      secrets: openFileStore(dataDir),
      clock: manualClock(),
      refreshIntervalMs: 3_600_000,
      record: { dir: cassettes },
    });
    try {
      const admin = (body: unknown) => request(`${front.url}/admin/api/channels`, 'POST', { token: front.gateway.adminToken, body });
      const channels = [
        { name: 'upstream-openai', kind: 'openai', base_url: `${upstream.url}/v1`, models: 'sim-realtime', key: channelKey },
        { name: 'upstream-platform', kind: 'platform', base_url: upstream.url, models: 'remote-3d=sim-3d', key: channelKey },
      ];
      for (const channel of channels) assert.equal((await admin(channel)).status, 200);

      recorded.turn = await textTurn(front);
      assert.ok(recorded.turn.frames.some((frame) => frame.includes('response.output_text.delta')));
      recorded.courses = await reviewTwo(front, () => upstreamClock.advance(REVIEW_MS));
      assert.deepEqual(
        recorded.courses.map((course) => course.statuses),
        [
          ['Submitted', 'Processing', 'Active'],
          ['Submitted', 'Processing', 'Failed'],
        ],
      );
      recorded.task = await taskCourse(front, (ms) => upstreamClock.advance(ms));
      assert.equal(recorded.task.seen.at(-1)![0], 'SUCCESS');
      // Saving happens once each recording ends: a session, a review's verdict, a task's end.
      await eventually(() => cassetteFiles().length === 4, 'four cassettes saved');
    } finally {
      await front.stop();
    }
  });

  /** The cassettes in the folder, by kind. */
  const cassetteFiles = () => readdirSync(cassettes).filter((name) => name.endsWith('.json'));
  const cassettesOf = (kind: string) =>
    cassetteFiles()
      .map((name) => JSON.parse(readFileSync(path.join(cassettes, name), 'utf8')))
      .filter((cassette) => cassette.kind === kind);

  test('the cassettes say what was recorded, from which channel, and no file holds the channel key in any encoding', () => {
    const [session] = cassettesOf('realtime');
    assert.equal(session.recording.channel, 'upstream-openai');
    assert.equal(session.request.model, 'sim-realtime');
    assert.deepEqual(
      session.frames.filter((frame: { from: string }) => frame.from === 'upstream').map((frame: { text: string }) => frame.text),
      recorded.turn!.frames,
      'the upstream frames as the client got them',
    );
    const audio = session.frames.find((frame: { textBlob?: { file: string; bytes: number } }) => frame.textBlob);
    assert.equal(audio.from, 'client', 'the second of audio the client sent is a blob beside the cassette');
    assert.ok(audio.textBlob.bytes > 64_000);
    assert.match(readFileSync(path.join(cassettes, audio.textBlob.file), 'utf8'), /^\{"type":"input_audio_buffer.append","audio":"AAAA/);
    const portraits = cassettesOf('portrait');
    assert.deepEqual(portraits.map((cassette) => cassette.observations.at(-1).status).sort(), ['Active', 'Failed']);
    assert.ok(portraits.every((cassette) => cassette.recording.channel === 'upstream-platform'));
    const [task] = cassettesOf('task3d');
    assert.equal(task.progress.at(-1).status, 'SUCCESS');
    assert.equal(task.files[0].blob.bytes, recorded.task!.file.length);
    const forms = [
      channelKey,
      Buffer.from(channelKey).toString('base64'),
      Buffer.from(channelKey).toString('hex'),
      encodeURIComponent(channelKey),
    ];
    for (const name of readdirSync(cassettes)) {
      const bytes = readFileSync(path.join(cassettes, name));
      for (const form of forms) assert.equal(bytes.includes(Buffer.from(form)), false, `${name} holds the channel key`);
    }
  });

  test('with the upstream stopped, a replay run gives the same frames, portrait statuses and 3D file, billed as recorded', async () => {
    await upstream.stop();
    upstreamStopped = true;
    const replay = await startGateway({
      clock: manualClock(),
      refreshIntervalMs: 3_600_000,
      replay: { dir: cassettes, miss: 'error', speed: 0 },
    });
    try {
      const turn = await textTurn(replay);
      assert.deepEqual(turn.frames, recorded.turn!.frames, 'the same frames, byte for byte');
      assert.deepEqual(
        usageRows(replay).filter((row) => row.endpoint === '/v1/realtime'),
        [
          {
            model: 'sim-realtime',
            endpoint: '/v1/realtime',
            input_tokens: recorded.turn!.usage.input_tokens,
            output_tokens: recorded.turn!.usage.output_tokens,
          },
        ],
      );
      assert.deepEqual(await reviewTwo(replay), recorded.courses);
      const task = await taskCourse(replay);
      assert.deepEqual(task.seen, recorded.task!.seen);
      assert.deepEqual(task.usage, recorded.task!.usage);
      assert.ok(task.file.equals(recorded.task!.file), 'the same 3D file, byte for byte');
    } finally {
      await replay.stop();
    }
  });

  test('a replayed session keeps its recorded timing, divided by --replay-speed', async () => {
    const [session] = cassettesOf('realtime');
    // Recorded: each upstream frame comes its offset after the client frame it followed (the first ones after the opening).
    let expected = 0;
    let anchor = 0;
    for (const frame of session.frames as { from: string; atMs: number }[]) {
      if (frame.from === 'client') anchor = frame.atMs;
      else {
        expected += Math.max(0, frame.atMs - anchor);
        anchor = Math.max(anchor, frame.atMs);
      }
    }
    assert.ok(expected > 0, 'the recording took some time');
    const waits: number[] = [];
    const replay = await startGateway({
      clock: manualClock(),
      replay: { dir: cassettes, speed: 2 },
      replayWait: async (ms) => void waits.push(ms),
    });
    try {
      assert.deepEqual((await textTurn(replay)).frames, recorded.turn!.frames);
      const total = waits.reduce((sum, ms) => sum + ms, 0);
      assert.ok(Math.abs(total - expected / 2) < 1e-6, `waited ${total} ms in all, recorded ${expected} ms at speed 2`);
    } finally {
      await replay.stop();
    }
  });

  test('a damaged cassette is refused whole, named with its file and field: a session with no frame played, a registration stored nowhere', async () => {
    const damaged = dirs.fresh();
    for (const name of readdirSync(cassettes)) writeFileSync(path.join(damaged, name), readFileSync(path.join(cassettes, name)));
    const edit = (kind: string, change: (cassette: any) => void) => {
      const name = readdirSync(damaged).find(
        (file) => file.endsWith('.json') && JSON.parse(readFileSync(path.join(damaged, file), 'utf8')).kind === kind,
      )!;
      const cassette = JSON.parse(readFileSync(path.join(damaged, name), 'utf8'));
      change(cassette);
      writeFileSync(path.join(damaged, name), JSON.stringify(cassette));
      return name;
    };
    const session = edit('realtime', (cassette) => delete cassette.frames[1].text);
    const review = edit('portrait', (cassette) => (cassette.observations[0].atMs = -1));
    const replay = await startGateway({ clock: manualClock(), replay: { dir: damaged, speed: 0 } });
    try {
      const socket = await openRaw(`${replay.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
        headers: { authorization: `Bearer ${replay.token}` },
      });
      const error = await socket.next('error');
      assert.equal(socket.events.length, 1, 'not one recorded frame was sent');
      assert.ok(
        error.error.message.includes(`${session} frames[1]: must have exactly one of text, textBlob and binary`),
        error.error.message,
      );
      const portrait = portraitClient(replay.url, replay.token);
      const groupId = dataOf(await portrait.createGroup({ name: 'Spokespeople' })).group_id;
      const urls = ['https://cdn.example.com/anna.png', 'https://cdn.example.com/reject/bob.png'];
      const answers = [];
      for (const url of urls) answers.push(await portrait.createAsset({ group_id: groupId, url, asset_type: 'Image', name: 'face' }));
      const refused = answers.find((answer) => answer.body.success === false)!;
      assert.ok(refused.body.message.includes(`${review} observations[0].atMs`), refused.body.message);
      assert.equal(dataOf(await portrait.listAssets()).total, 1, 'only the sound cassette registered an asset');
    } finally {
      await replay.stop();
    }
  });

  test('replaying, a client that leaves the recording is told where, and misses under --replay-miss error are refused', async () => {
    const replay = await startGateway({ clock: manualClock(), replay: { dir: cassettes, miss: 'error', speed: 0 } });
    try {
      const socket = await openRaw(`${replay.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
        headers: { authorization: `Bearer ${replay.token}` },
      });
      await socket.next('session.created');
      socket.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be long.' } });
      const error = await socket.next('error');
      assert.equal(error.error.code, 'cassette_mismatch');
      assert.match(error.error.message, /sim-realtime\.[0-9a-f]{16}\.json; client event 1 differs at session\.instructions/);
      assert.equal((await socket.closing).code, 1008);

      const other = await openRaw(`${replay.url.replace('http', 'ws')}/v1/realtime?model=sim-echo`, {
        headers: { authorization: `Bearer ${replay.token}` },
      });
      const refused = await other.next('error');
      assert.match(refused.error.message, /No cassette was recorded for this realtime session of model 'sim-echo'/);

      const portrait = portraitClient(replay.url, replay.token);
      const groupId = dataOf(await portrait.createGroup({ name: 'Spokespeople' })).group_id;
      const answer = await portrait.createAsset({
        group_id: groupId,
        url: 'https://cdn.example.com/carl.png',
        asset_type: 'Image',
        name: 'face',
      });
      assert.equal(answer.body.success, false);
      assert.match(answer.body.message, /No cassette was recorded for this portrait asset registration/);
      const task = await request(`${replay.url}/v1/3d/generations`, 'POST', {
        token: replay.token,
        body: { model: 'remote-3d', prompt: 'a chair' },
      });
      assert.equal(task.status, 404);
      assert.match(task.body.error.message, /No cassette was recorded for this 3D task/);
    } finally {
      await replay.stop();
    }
  });
});

describe(
  '--record-simulated: simulated reviews and a 3D task recorded, then replayed (the reviews to the background scan)',
  { timeout: 60_000 },
  () => {
    const dirs = tempDirs();
    after(() => dirs.removeAll());
    const URLS = ['https://cdn.example.com/scan/dora.png', 'https://cdn.example.com/scan/clip.mp4'];

    /** Registers both URLs on `gw`, then lets the background scan (asked through the admin API) see them before and after the review time. */
    const scanned = async (gw: TestGateway, refresh: (id: string) => Promise<unknown>) => {
      const portrait = portraitClient(gw.url, gw.token);
      const admin = (method: string, url: string, body?: unknown) =>
        request(`${gw.url}/admin/api${url}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });
      const groupId = dataOf(await portrait.createGroup({ name: 'Scanned' })).group_id;
      const ids: string[] = [];
      for (const url of URLS) ids.push(dataOf(await portrait.createAsset({ group_id: groupId, url, asset_type: 'Image' })).asset_id);
      const states = async () => {
        const items = dataOf(await portrait.listAssets('?page_size=100')).items as any[];
        return ids.map((id) => items.find((item) => item.asset_id === id)).map((item) => [item.status, item.failure_reason]);
      };
      for (const id of ids) await refresh(id);
      const before = await states();
      assert.equal((await admin('POST', '/clock/advance', { ms: REVIEW_MS })).status, 200);
      for (const id of ids) await refresh(id);
      return [before, await states()];
    };

    /** A simulated 3D task that fails (the simulator's test word): its state at creation and once its time is up. */
    const failingTask = async (gw: TestGateway) => {
      const call = (method: string, url: string, body?: unknown) =>
        request(`${gw.url}${url}`, method, { token: gw.token, ...(body !== undefined && { body }) });
      const created = (await call('POST', '/v1/3d/generations', { model: 'sim-3d', prompt: 'a vase that will fail' })).body;
      const moved = await request(`${gw.url}/admin/api/clock/advance`, 'POST', { token: gw.gateway.adminToken, body: { ms: TASK_MS } });
      assert.equal(moved.status, 200);
      const done = (await call('GET', `/v1/3d/generations/${created.task_id}`)).body;
      return [created.status, done.status, done.failure_reason, done.amount];
    };

    test('the simulated reviewer is recorded and its course replays on the gateway clock, the scan seeing it as the queries did', async () => {
      const cassettes = dirs.fresh();
      const recorder = await startGateway({
        clock: manualClock(),
        simReviewMs: REVIEW_MS,
        refreshIntervalMs: 3_600_000,
        record: { dir: cassettes, simulated: true },
      });
      let recorded;
      let recordedTask;
      try {
        recorded = await scanned(recorder, (id) => portraitClient(recorder.url, recorder.token).getAsset(id));
        recordedTask = await failingTask(recorder);
        await eventually(() => readdirSync(cassettes).filter((name) => name.endsWith('.json')).length === 3, 'three cassettes saved');
      } finally {
        await recorder.stop();
      }
      assert.deepEqual(recorded, [
        [
          ['Processing', null],
          ['Processing', null],
        ],
        [
          ['Active', null],
          ['Failed', 'format mismatch: a .mp4 file is Video, not Image'],
        ],
      ]);
      const modes = readdirSync(cassettes)
        .filter((name) => name.endsWith('.json'))
        .map((name) => JSON.parse(readFileSync(path.join(cassettes, name), 'utf8')).recording.mode);
      assert.deepEqual(modes, ['simulate', 'simulate', 'simulate']);
      assert.deepEqual(recordedTask, ['SUBMITTED', 'FAILURE', 'generation failed: the prompt contains the test value "fail"', '0.000000']);

      // The replaying gateway reviews slowly: only the cassettes can give the 10 s verdicts.
      const replay = await startGateway({
        clock: manualClock(),
        simReviewMs: 3_600_000,
        sim3dMs: 3_600_000,
        refreshIntervalMs: 3_600_000,
        replay: { dir: cassettes },
      });
      try {
        const scan = async () => {
          const answer = await request(`${replay.url}/admin/api/scan`, 'POST', { token: replay.gateway.adminToken });
          assert.equal(answer.status, 200);
        };
        let scans = 0;
        assert.deepEqual(
          await scanned(replay, async () => {
            if (scans++ % URLS.length === 0) await scan();
          }),
          recorded,
        );
        assert.deepEqual(await failingTask(replay), recordedTask);
      } finally {
        await replay.stop();
      }
    });
  },
);

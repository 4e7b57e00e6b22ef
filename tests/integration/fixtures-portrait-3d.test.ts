// Integration tests of portrait review and 3D fixtures: a scripted verdict after its delay on the gateway's clock (single-asset query and background scan), a scripted 3D course with its file, sequences, test ids, and validation naming file, index and field.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FixturesError } from '../../electron/gateway/index.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { manualClock, type ManualClock } from '../helpers/clock.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { dataOf } from '../helpers/portrait.ts';

const TEST_ID = 'x-gatehouse-test-id';
const REVIEW_MS = 10_000;
const SIM_3D_MS = 20_000;

/** A scripted GLB's bytes (any bytes: the file is served as given). */
const GLB = randomBytes(4096);

const FIXTURES = [
  {
    name: 'banned faces',
    match: { endpoint: 'portrait', url: { glob: 'https://cdn.example.com/banned/*.png' }, asset_type: 'Image' },
    response: { review: { status: 'Failed', reason: 'no face found in the picture', delay_ms: 5_000 } },
  },
  {
    name: 'first fails, then passes',
    match: { endpoint: 'portrait', url: { regex: '/retry/\\w+\\.png$' } },
    sequence: [
      { review: { status: 'Failed', reason: 'blurry', delay_ms: 1_000 } },
      { review: { status: 'Active', delay_ms: 1_000, resolved_url: 'asset://scripted-second' } },
    ],
  },
  {
    name: 'teapot',
    match: { endpoint: '3d', input: 'teapot', model: 'sim-3d' },
    response: {
      task3d: { status: 'SUCCESS', progress: [10, 50, 100], duration_ms: 3_000, file: 'teapot.glb', usage: { output_tokens: 1_234 } },
    },
  },
  {
    name: 'broken mesh',
    match: { endpoint: '3d', input: { regex: '^broken' } },
    response: { task3d: { status: 'FAILURE', reason: 'the mesh has holes', progress: [0, 40], duration_ms: 2_000 } },
  },
];

describe('portrait review and 3D fixtures', () => {
  const dirs = tempDirs();
  let gw: TestGateway;
  let clock: ManualClock;
  let groupId: string;

  const call = (method: string, url: string, body?: unknown, testId?: string) =>
    request(`${gw.url}${url}`, method, {
      token: gw.token,
      ...(body !== undefined && { body }),
      ...(testId !== undefined && { headers: { [TEST_ID]: testId } }),
    });
  const createAsset = async (url: string, testId?: string) =>
    dataOf(await call('POST', '/v1/portrait/assets', { group_id: groupId, url, asset_type: 'Image' }, testId));
  const getAsset = async (id: string) => dataOf(await call('GET', `/v1/portrait/assets/${id}`));
  const createTask = async (body: unknown, testId?: string) => {
    const created = await call('POST', '/v1/3d/generations', body, testId);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body;
  };
  const getTask = async (id: string) => (await call('GET', `/v1/3d/generations/${id}`)).body;
  const admin = (method: string, url: string, body?: unknown) =>
    request(`${gw.url}/admin/api${url}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });
  const charges = () =>
    (gw.gateway.context.db.prepare("SELECT COUNT(*) AS n FROM usage_records WHERE endpoint = '/v1/3d/generations'").get() as { n: number })
      .n;

  before(async () => {
    const dir = dirs.fresh();
    writeFileSync(path.join(dir, 'teapot.glb'), GLB);
    writeFileSync(path.join(dir, 'work.json'), JSON.stringify({ fixtures: FIXTURES }));
    clock = manualClock();
    // The background scan is pushed far away: only the single-asset query refreshes here.
    gw = await startGateway({
      clock,
      simReviewMs: REVIEW_MS,
      sim3dMs: SIM_3D_MS,
      refreshIntervalMs: 3_600_000,
      fixtures: [path.join(dir, 'work.json')],
    });
    groupId = dataOf(await call('POST', '/v1/portrait/groups', { name: 'fixtures' })).group_id;
  });
  after(async () => {
    await gw.stop();
    dirs.removeAll();
  });

  test('a matching URL is Failed with the scripted reason once the clock passes its delay; another URL stays simulated', async () => {
    const banned = await createAsset('https://cdn.example.com/banned/anna.png');
    const plain = await createAsset('https://cdn.example.com/people/bob.png');
    assert.equal(banned.status, 'Submitted');
    assert.equal((await getAsset(banned.asset_id)).status, 'Processing');
    clock.advance(4_999);
    assert.equal((await getAsset(banned.asset_id)).status, 'Processing', 'not before its delay');
    clock.advance(1);
    const failed = await getAsset(banned.asset_id);
    assert.equal(failed.status, 'Failed');
    assert.equal(failed.failure_reason, 'no face found in the picture');
    assert.equal(failed.resolved_url, null);
    // The other URL follows the simulator: still under review at 5 s, Active after its 10 s.
    assert.equal((await getAsset(plain.asset_id)).status, 'Processing');
    clock.advance(REVIEW_MS);
    const active = await getAsset(plain.asset_id);
    assert.equal(active.status, 'Active');
    assert.match(active.resolved_url, /^asset:\/\/sim_/);
  });

  test('a sequence: the first matching asset Fails, the second is Active with the scripted URL', async () => {
    const first = await createAsset('https://cdn.example.com/retry/one.png');
    const second = await createAsset('https://cdn.example.com/retry/two.png');
    clock.advance(1_000);
    const [a, b] = [await getAsset(first.asset_id), await getAsset(second.asset_id)];
    assert.deepEqual([a.status, a.failure_reason], ['Failed', 'blurry']);
    assert.deepEqual([b.status, b.resolved_url], ['Active', 'asset://scripted-second']);
  });

  test('a 3D fixture goes through its progress steps and ends SUCCESS with its file, usage charged', async () => {
    const task = await createTask({ model: 'sim-3d', prompt: 'a small ceramic teapot' });
    const seen = [[task.status, task.progress]];
    for (let step = 0; step < 3; step++) {
      clock.advance(1_000);
      const now = await getTask(task.task_id);
      seen.push([now.status, now.progress]);
    }
    assert.deepEqual(seen, [
      ['IN_PROGRESS', '10%'],
      ['IN_PROGRESS', '50%'],
      ['IN_PROGRESS', '100%'],
      ['SUCCESS', '100%'],
    ]);
    const done = await getTask(task.task_id);
    assert.equal(done.usage.output_tokens, 1_234);
    assert.ok(Number(done.amount) > 0, 'a scripted success is charged like a simulated one');
    assert.equal(done.finish_time - done.submit_time, 3);
    const file = await fetch(done.files[0].url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'model/gltf-binary');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), GLB);
  });

  test('a 3D fixture ends FAILURE with its reason, no file and no charge', async () => {
    const chargesBefore = charges();
    const task = await createTask({ prompt: 'broken vase' });
    assert.deepEqual([task.status, task.progress], ['SUBMITTED', '0%']);
    clock.advance(1_000);
    assert.deepEqual([(await getTask(task.task_id)).status, (await getTask(task.task_id)).progress], ['IN_PROGRESS', '40%']);
    clock.advance(1_000);
    const done = await getTask(task.task_id);
    assert.equal(done.status, 'FAILURE');
    assert.equal(done.failure_reason, 'the mesh has holes');
    assert.deepEqual(done.files, []);
    assert.equal(done.amount, '0.000000');
    assert.equal(charges(), chargesBefore, 'a failed task is not charged');
  });

  test('two test ids at once see only their own portrait and 3D fixtures', async () => {
    const added = await Promise.all([
      admin('POST', '/fixtures', {
        test_id: 'alpha',
        fixtures: [{ match: { url: 'alpha-only' }, response: { review: { status: 'Failed', reason: 'alpha says no' } } }],
      }),
      admin('POST', '/fixtures', {
        test_id: 'beta',
        fixtures: [{ match: { input: 'chair' }, response: { task3d: { status: 'FAILURE', reason: 'beta says no' } } }],
      }),
    ]);
    for (const answer of added) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const url = 'https://cdn.example.com/alpha-only.png';
    const [alphaAsset, betaAsset] = await Promise.all([createAsset(url, 'alpha'), createAsset(url, 'beta')]);
    const [alphaTask, betaTask] = await Promise.all([
      createTask({ prompt: 'a wooden chair' }, 'alpha'),
      createTask({ prompt: 'a wooden chair' }, 'beta'),
    ]);
    clock.advance(Math.max(REVIEW_MS, SIM_3D_MS));
    const [alphaSeen, betaSeen] = [await getAsset(alphaAsset.asset_id), await getAsset(betaAsset.asset_id)];
    assert.deepEqual([alphaSeen.status, alphaSeen.failure_reason], ['Failed', 'alpha says no']);
    assert.equal(betaSeen.status, 'Active', "beta does not see alpha's fixture: simulated");
    const [alphaDone, betaDone] = [await getTask(alphaTask.task_id), await getTask(betaTask.task_id)];
    assert.equal(alphaDone.status, 'SUCCESS', "alpha does not see beta's fixture: simulated");
    assert.deepEqual([betaDone.status, betaDone.failure_reason], ['FAILURE', 'beta says no']);
  });

  test('the journal names the fixture, and strict mode refuses an unmatched registration and task naming the closest fixture', async () => {
    await createAsset('https://cdn.example.com/banned/journal.png');
    const entries = (await admin('GET', '/journal?path=/v1/portrait/assets')).body.items as { id: number }[];
    assert.equal((await admin('GET', `/journal/${entries[0]!.id}`)).body.fixture, 'banned faces');
    const strict = { 'x-gatehouse-strict': '1' };
    const total = async () => dataOf(await call('GET', '/v1/portrait/assets?page_size=1')).total;
    const before = await total();
    const asset = await request(`${gw.url}/v1/portrait/assets`, 'POST', {
      token: gw.token,
      headers: strict,
      body: { group_id: groupId, url: 'https://cdn.example.com/people/unscripted.png', asset_type: 'Image' },
    });
    assert.equal(asset.body.success, false);
    assert.match(asset.body.message, /No fixture matched this portrait call \(strict mode\)\. The closest is .*url/);
    const task = await request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, headers: strict, body: { prompt: 'a lamp' } });
    assert.equal(task.status, 404);
    assert.match(task.body.error.message, /No fixture matched this 3d call \(strict mode\)/);
    assert.equal(await total(), before, 'nothing was registered');
  });

  test('the admin API refuses a 3D fixture naming a file, naming the field', async () => {
    const refused = await admin('POST', '/fixtures', {
      fixtures: [{ match: { endpoint: '3d' }, response: { task3d: { status: 'SUCCESS', file: 'teapot.glb' } } }],
    });
    assert.equal(refused.status, 400);
    assert.match(
      JSON.stringify(refused.body),
      /runtime#\d+ response\.task3d\.file: a fixture added through the admin API cannot name a file/,
    );
  });
});

describe('a scripted review reached by the background scan', () => {
  let gw: TestGateway;
  let clock: ManualClock;
  before(async () => {
    clock = manualClock();
    gw = await startGateway({ clock, simReviewMs: REVIEW_MS, refreshIntervalMs: 50 });
  });
  after(() => gw.stop());

  test('with no query, the scan stores Processing before the delay and the verdict after the clock passes it', async () => {
    gw.gateway.context.fixtures.add({
      match: { url: 'scanned' },
      response: { review: { status: 'Failed', reason: 'scan saw it', delay_ms: 60_000 } },
    });
    const send = (method: string, url: string, body?: unknown) =>
      request(`${gw.url}${url}`, method, { token: gw.token, ...(body !== undefined && { body }) });
    const group = dataOf(await send('POST', '/v1/portrait/groups', { name: 'scan' })).group_id;
    const asset = dataOf(
      await send('POST', '/v1/portrait/assets', { group_id: group, url: 'https://cdn.example.com/scanned.png', asset_type: 'Image' }),
    );
    const listed = async () =>
      (
        dataOf(await send('GET', '/v1/portrait/assets?page_size=100')).items as {
          asset_id: string;
          status: string;
          failure_reason: string;
        }[]
      ).find((item) => item.asset_id === asset.asset_id)!;
    const scansUntil = async (status: string) => {
      for (let scans = 0; scans < 100 && (await listed()).status !== status; scans++) await once(gw.gateway.events, 'scan.finished');
      return listed();
    };
    assert.equal((await scansUntil('Processing')).status, 'Processing');
    await once(gw.gateway.events, 'scan.finished');
    assert.equal((await listed()).status, 'Processing', 'still under review: the clock has not moved');
    clock.advance(60_000);
    const done = await scansUntil('Failed');
    assert.deepEqual([done.status, done.failure_reason], ['Failed', 'scan saw it']);
  });
});

describe('portrait and 3D fixture validation', () => {
  const dirs = tempDirs();
  after(() => dirs.removeAll());

  test('a bad portrait or 3D fixture is named by file, index and field, and the gateway does not start', async () => {
    const dir = dirs.fresh();
    const file = path.join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify([
        { match: { endpoint: 'portrait' }, response: { review: { status: 'Rejected' } } },
        { match: { asset_type: 'Picture', url: { regex: '(a+)+$' } }, response: { review: { status: 'Active', reason: 'x' } } },
        { match: { endpoint: '3d' }, response: { task3d: { status: 'SUCCESS', progress: [50, 10], file: 'missing.glb' } } },
        { match: { endpoint: '3d' }, response: { review: { status: 'Active' } } },
        { response: { review: { status: 'Failed', delay_ms: 86_400_001 } } },
        { response: { task3d: { status: 'SUCCESS', progress: Array.from({ length: 101 }, () => 100) } } },
      ]),
    );
    const error = await startGateway({ dataDir: dirs.fresh(), fixtures: [file] }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof FixturesError, String(error));
    const named = error.problems.map((problem) => `${path.basename(problem.file!)}#${problem.index} ${problem.field}`);
    assert.deepEqual(named, [
      'bad.json#0 response.review.status',
      'bad.json#1 match.url',
      'bad.json#1 match.asset_type',
      'bad.json#1 response.review.reason',
      'bad.json#2 response.task3d.progress[1]',
      'bad.json#2 response.task3d.file',
      'bad.json#3 response',
      'bad.json#4 response.review.delay_ms',
      'bad.json#5 response.task3d.progress',
    ]);
    assert.match(error.message, /bad\.json#0 response\.review\.status: must be "Active" or "Failed"; got "Rejected"/);
    assert.match(error.message, /nests quantifiers/);
  });
});

describe('fixtures decide before the portrait and 3D service channels', () => {
  const dirs = tempDirs();
  let remote: TestGateway;
  let front: TestGateway;
  let groupId: string;
  const send = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(`${front.url}${url}`, method, { token: front.token, headers, ...(body !== undefined && { body }) });
  const remoteTotal = async () =>
    dataOf(await request(`${remote.url}/v1/portrait/assets?page_size=1`, 'GET', { token: remote.token })).total;

  before(async () => {
    remote = await startGateway({ simReviewMs: 0 });
    const dataDir = dirs.fresh();
    front = await startGateway({ dataDir, secrets: openFileStore(dataDir), refreshIntervalMs: 3_600_000 });
    const added = await request(`${front.url}/admin/api/channels`, 'POST', {
      token: front.gateway.adminToken,
      body: { name: 'team-platform', kind: 'platform', base_url: remote.url, models: 'remote-3d=sim-3d', key: remote.token },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    front.gateway.context.fixtures.add([
      { match: { url: 'scripted' }, response: { review: { status: 'Failed', reason: 'scripted here' } } },
      { match: { input: 'scripted' }, response: { task3d: { status: 'FAILURE', reason: 'scripted here' } } },
    ]);
    groupId = dataOf(await send('POST', '/v1/portrait/groups', { name: 'front' })).group_id;
  });
  after(async () => {
    await front.stop({ keepData: true });
    await remote.stop();
    dirs.removeAll();
  });

  test('a scripted asset and task never reach the channel; under strict mode an unmatched one is refused, not relayed', async () => {
    const remoteBefore = await remoteTotal();
    const asset = dataOf(
      await send('POST', '/v1/portrait/assets', { group_id: groupId, url: 'https://cdn.example.com/scripted.png', asset_type: 'Image' }),
    );
    const seen = dataOf(await send('GET', `/v1/portrait/assets/${asset.asset_id}`));
    assert.deepEqual([seen.status, seen.failure_reason], ['Failed', 'scripted here']);
    const task = (await send('POST', '/v1/3d/generations', { model: 'remote-3d', prompt: 'scripted vase' })).body;
    assert.deepEqual([task.status, task.failure_reason], ['FAILURE', 'scripted here']);

    const strict = { 'x-gatehouse-strict': '1' };
    const refused = await send(
      'POST',
      '/v1/portrait/assets',
      { group_id: groupId, url: 'https://cdn.example.com/other.png', asset_type: 'Image' },
      strict,
    );
    assert.match(refused.body.message, /No fixture matched this portrait call \(strict mode\)/);
    const refusedTask = await send('POST', '/v1/3d/generations', { model: 'remote-3d', prompt: 'a lamp' }, strict);
    assert.equal(refusedTask.status, 404);
    assert.equal(await remoteTotal(), remoteBefore, 'nothing was registered on the channel');
    const remoteTasks = remote.gateway.context.db.prepare('SELECT COUNT(*) AS n FROM tasks3d').get() as { n: number };
    assert.equal(remoteTasks.n, 0, 'no task was created on the channel');
  });
});

describe('the testing API clock moves scripted reviews and 3D tasks', () => {
  let gw: TestGateway;
  const send = (method: string, url: string, body?: unknown) =>
    request(`${gw.url}${url}`, method, { token: gw.token, ...(body !== undefined && { body }) });
  const admin = (method: string, url: string, body?: unknown) =>
    request(`${gw.url}/admin/api${url}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });
  before(async () => {
    // A base clock that stands still: only POST /admin/api/clock/advance moves the gateway's time here.
    gw = await startGateway({ clock: manualClock(), refreshIntervalMs: 3_600_000 });
  });
  after(() => gw.stop());

  test('an advance past the delay makes a Submitted asset reach its verdict and a task end SUCCESS, with no waiting', async () => {
    const added = await admin('POST', '/fixtures', {
      fixtures: [
        { match: { url: 'advance' }, response: { review: { status: 'Failed', reason: 'seen after the advance', delay_ms: 600_000 } } },
        { match: { input: 'advance' }, response: { task3d: { status: 'SUCCESS', progress: [0, 30, 60], duration_ms: 900_000 } } },
      ],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const group = dataOf(await send('POST', '/v1/portrait/groups', { name: 'advance' })).group_id;
    const asset = dataOf(
      await send('POST', '/v1/portrait/assets', { group_id: group, url: 'https://cdn.example.com/advance.png', asset_type: 'Image' }),
    );
    const task = (await send('POST', '/v1/3d/generations', { prompt: 'advance a cube' })).body;
    assert.equal(asset.status, 'Submitted');
    assert.deepEqual([task.status, task.progress], ['SUBMITTED', '0%']);
    assert.equal(dataOf(await send('GET', `/v1/portrait/assets/${asset.asset_id}`)).status, 'Processing');

    assert.equal((await admin('POST', '/clock/advance', { ms: 300_000 })).status, 200);
    assert.deepEqual(
      [
        (await send('GET', `/v1/3d/generations/${task.task_id}`)).body.status,
        (await send('GET', `/v1/3d/generations/${task.task_id}`)).body.progress,
      ],
      ['IN_PROGRESS', '30%'],
    );
    assert.equal(dataOf(await send('GET', `/v1/portrait/assets/${asset.asset_id}`)).status, 'Processing');

    const advanced = await admin('POST', '/clock/advance', { ms: 600_000 });
    assert.equal(advanced.body.offset_ms, 900_000);
    const failed = dataOf(await send('GET', `/v1/portrait/assets/${asset.asset_id}`));
    assert.deepEqual([failed.status, failed.failure_reason], ['Failed', 'seen after the advance']);
    const done = (await send('GET', `/v1/3d/generations/${task.task_id}`)).body;
    assert.equal(done.status, 'SUCCESS');
    assert.equal(done.files.length, 1, "no file scripted: the simulator's mesh");
    assert.equal((await fetch(done.files[0].url)).status, 200);
  });
});

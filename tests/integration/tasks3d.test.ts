// Integration tests of 3D generation tasks: the state machine over time, real GLB/OBJ/STL files, failure, isolation, restart and billing.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseServeOptions } from '../../electron/cli/options.ts';
import { UsageError } from '../../electron/gateway/options/serve-options.ts';
import { amountMicros } from '../../electron/gateway/services/pricing.ts';
import { manualClock, type ManualClock } from '../helpers/clock.ts';
import { checkGlb } from '../helpers/glb-check.ts';
import { request, startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';

const DURATION = 10_000;

describe('3D generation tasks', () => {
  let gw: TestGateway;
  let clock: ManualClock;
  const create = (body: unknown, token = gw.token) => request(`${gw.url}/v1/3d/generations`, 'POST', { token, body });
  const query = (id: string, token = gw.token) => request(`${gw.url}/v1/3d/generations/${id}`, 'GET', { token });
  before(async () => {
    clock = manualClock();
    gw = await startGateway({ clock, sim3dMs: DURATION });
  });
  after(() => gw.stop());

  test('a task moves SUBMITTED → QUEUED → IN_PROGRESS → SUCCESS with monotonic progress and the spec shape', async () => {
    const created = await create({ prompt: 'a small ceramic teapot' });
    assert.equal(created.status, 200);
    const task = created.body;
    assert.match(task.task_id, /^task_/);
    assert.equal(task.object, '3d.generation');
    assert.equal(task.model, 'sim-3d');
    assert.equal(task.status, 'SUBMITTED');
    assert.deepEqual(task.files, []);
    const seen: { status: string; progress: number }[] = [];
    for (let step = 0; step <= 10; step++) {
      const now = (await query(task.task_id)).body;
      seen.push({ status: now.status, progress: Number.parseInt(now.progress, 10) });
      assert.match(now.progress, /^\d{1,3}%$/);
      clock.advance(DURATION / 10);
    }
    const order = ['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS'];
    const statuses = [...new Set(seen.map((s) => s.status))];
    assert.deepEqual(statuses, order);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress >= seen[i - 1]!.progress, JSON.stringify(seen));
    const done = (await query(task.task_id)).body;
    assert.equal(done.progress, '100%');
    assert.equal(done.files.length, 1);
    assert.equal(done.files[0].format, 'glb');
    for (const key of ['created_at', 'submit_time', 'finish_time']) assert.ok(Number.isInteger(done[key]), key);
    assert.equal(done.finish_time - done.submit_time, DURATION / 1000, 'Unix seconds');
    assert.ok(done.usage.input_tokens > 0 && done.usage.output_tokens > 0);
    assert.equal(done.usage.total_tokens, done.usage.input_tokens + done.usage.output_tokens);
    assert.match(done.amount, /^\d+\.\d{6}$/);
    assert.ok(Number(done.amount) > 0.2);

    const file = await fetch(done.files[0].url);
    assert.equal(file.headers.get('content-type'), 'model/gltf-binary');
    const glb = checkGlb(Buffer.from(await file.arrayBuffer()));
    assert.equal(glb.triangles, done.usage.output_tokens);
  });

  test('OBJ and STL results parse with matching triangle counts; the same prompt gives the same mesh', async () => {
    const obj = (await create({ prompt: 'a bicycle bell', format: 'obj' })).body;
    const stl = (await create({ prompt: 'a bicycle bell', format: 'STL' })).body;
    clock.advance(DURATION);
    const objDone = (await query(obj.task_id)).body;
    const stlDone = (await query(stl.task_id)).body;
    const text = await (await fetch(objDone.files[0].url)).text();
    const vertices = text.split('\n').filter((line) => line.startsWith('v ')).length;
    const faces = text.split('\n').filter((line) => line.startsWith('f '));
    for (const face of faces) for (const ref of face.slice(2).split(' ')) assert.ok(Number(ref.split('//')[0]) <= vertices);
    const bytes = Buffer.from(await (await fetch(stlDone.files[0].url)).arrayBuffer());
    const count = bytes.readUInt32LE(80);
    assert.equal(bytes.length, 84 + count * 50);
    assert.equal(count, faces.length);
    assert.equal(objDone.usage.output_tokens, stlDone.usage.output_tokens);
    const points = text
      .split('\n')
      .filter((line) => line.startsWith('v '))
      .map((line) => line.slice(2).split(' ').map(Number));
    faces.forEach((face, t) => {
      const corners = face
        .slice(2)
        .split(' ')
        .flatMap((ref) => points[Number(ref.split('//')[0]) - 1]!);
      corners.forEach((value, i) => assert.ok(Math.abs(value - bytes.readFloatLE(84 + t * 50 + 12 + i * 4)) < 1e-5, `triangle ${t}`));
    });
  });

  test('a prompt containing "fail" ends in FAILURE with a reason and no charge; progress never goes back', async () => {
    const charges = () =>
      (
        gw.gateway.context.db.prepare("SELECT COUNT(*) AS n FROM usage_records WHERE endpoint = '/v1/3d/generations'").get() as {
          n: number;
        }
      ).n;
    const chargesBefore = charges();
    const task = (await create({ prompt: 'please FAIL this one' })).body;
    assert.equal(task.failure_reason, null);
    const seen: { status: string; progress: number }[] = [];
    for (let step = 0; step <= 10; step++) {
      const now = (await query(task.task_id)).body;
      seen.push({ status: now.status, progress: Number.parseInt(now.progress, 10) });
      clock.advance(DURATION / 10);
    }
    assert.deepEqual([...new Set(seen.map((s) => s.status))], ['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE']);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress >= seen[i - 1]!.progress, JSON.stringify(seen));
    const done = (await query(task.task_id)).body;
    assert.equal(done.status, 'FAILURE');
    assert.match(done.failure_reason, /fail/);
    assert.deepEqual(done.files, []);
    assert.equal(done.amount, '0.000000');
    assert.ok(done.finish_time > 0);
    assert.equal(charges(), chargesBefore, 'a failed task is not charged');
  });

  test('bad requests are 400s in the OpenAI error shape and store nothing', async () => {
    const stored = () => (gw.gateway.context.db.prepare('SELECT COUNT(*) AS n FROM tasks3d').get() as { n: number }).n;
    const before = stored();
    for (const [body, param] of [
      [{}, 'prompt'],
      [{ prompt: '  ' }, 'prompt'],
      [{ prompt: 'x', format: 'fbx' }, 'format'],
      [{ image_url: 'http://insecure.example/a.png' }, 'image_url'],
      [{ prompt: 5 }, 'prompt'],
    ] as const) {
      const response = await create(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body.error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(response.body.error.param, param);
      assert.equal(response.body.error.type, 'invalid_request_error');
    }
    assert.equal(stored(), before);
    const fromImage = await create({ image_url: 'https://cdn.example.com/chair.png' });
    assert.equal(fromImage.status, 200);
  });

  test('another token of the same account sees the task; another account and unknown ids get the same 404 error object', async () => {
    const task = (await create({ prompt: 'a lamp' })).body;
    const colleague = gw.gateway.context.tokens.create({ account: 'local', name: 'second key' }).secret;
    const shared = await query(task.task_id, colleague);
    assert.equal(shared.status, 200);
    assert.equal(shared.body.task_id, task.task_id);
    const stranger = gw.gateway.context.tokens.create({ account: 'stranger' }).secret;
    const theirs = await query(task.task_id, stranger);
    const unknown = await query('task_unknown');
    assert.equal(theirs.status, 404);
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(theirs.body.error).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(theirs.body.error.type, unknown.body.error.type);
    const missingFile = await fetch(`${gw.url}/v1/3d/files/nothing.glb`);
    assert.equal(missingFile.status, 404);
  });

  test('a result file lost from the data dir answers 404 in the OpenAI error shape, not a server error', async () => {
    const task = (await create({ prompt: 'a watering can', format: 'obj' })).body;
    clock.advance(DURATION);
    const done = (await query(task.task_id)).body;
    const file = await fetch(done.files[0].url);
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'model/obj');
    assert.equal(Number(file.headers.get('content-length')), bytes.length);
    rmSync(path.join(gw.dataDir, 'files', '3d', new URL(done.files[0].url).pathname.split('/').at(-1)!));
    const lost = await fetch(done.files[0].url);
    assert.equal(lost.status, 404);
    const body = (await lost.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  });

  test('a successful task is charged exactly once, however often it is read', async () => {
    const charges = () =>
      gw.gateway.context.db.prepare("SELECT amount_micros FROM usage_records WHERE endpoint = '/v1/3d/generations' ORDER BY id").all() as {
        amount_micros: number;
      }[];
    const task = (await create({ prompt: 'a paper crane' })).body;
    const before = charges().length;
    clock.advance(DURATION);
    await Promise.all([query(task.task_id), query(task.task_id), query(task.task_id)]);
    const done = (await query(task.task_id)).body;
    const after = charges();
    assert.equal(after.length, before + 1);
    assert.equal((after.at(-1)!.amount_micros / 1e6).toFixed(6), done.amount);
    const expected = amountMicros('sim-3d', done.usage.input_tokens, done.usage.output_tokens);
    assert.equal(
      expected,
      200_000 + done.usage.input_tokens * 1 + done.usage.output_tokens * 2,
      'price row: $0.20 per call, $1/M in, $2/M out',
    );
    assert.equal(after.at(-1)!.amount_micros, expected);
  });
});

test('a model alias of sim-3d is charged and shown at the sim-3d row', async () => {
  const clock = manualClock();
  const gw = await startGateway({ clock, sim3dMs: DURATION, modelAliases: { 'studio-3d': 'sim-3d' } });
  try {
    const task = (
      await request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, body: { model: 'studio-3d', prompt: 'a kettle' } })
    ).body;
    assert.equal(task.model, 'studio-3d');
    clock.advance(DURATION);
    const done = (await request(`${gw.url}/v1/3d/generations/${task.task_id}`, 'GET', { token: gw.token })).body;
    const expected = amountMicros('sim-3d', done.usage.input_tokens, done.usage.output_tokens);
    assert.equal(done.amount, (expected / 1e6).toFixed(6));
    const charged = gw.gateway.context.db
      .prepare("SELECT model, amount_micros FROM usage_records WHERE endpoint = '/v1/3d/generations'")
      .all();
    assert.deepEqual(charged, [{ model: 'studio-3d', amount_micros: expected }]);
  } finally {
    await gw.stop();
  }
});

test('a task running when the gateway stops finishes after a restart on the same data dir', async () => {
  const dataDir = tempDataDir();
  const clock = manualClock();
  const first = await startGateway({ dataDir, clock, sim3dMs: DURATION });
  const task = (await request(`${first.url}/v1/3d/generations`, 'POST', { token: first.token, body: { prompt: 'a rocket' } })).body;
  clock.advance(DURATION / 2);
  const running = (await request(`${first.url}/v1/3d/generations/${task.task_id}`, 'GET', { token: first.token })).body;
  assert.equal(running.status, 'IN_PROGRESS');
  await first.stop({ keepData: true });
  const second = await startGateway({ dataDir, clock, sim3dMs: DURATION });
  try {
    const query = () => request(`${second.url}/v1/3d/generations/${task.task_id}`, 'GET', { token: first.token });
    const resumed = (await query()).body;
    assert.equal(resumed.status, 'IN_PROGRESS');
    assert.equal(resumed.progress, running.progress, 'resumes where it was, not from the start');
    clock.advance(DURATION / 2);
    const done = (await query()).body;
    assert.equal(done.status, 'SUCCESS');
    assert.equal(done.finish_time - done.submit_time, DURATION / 1000);
    checkGlb(Buffer.from(await (await fetch(done.files[0].url)).arrayBuffer()));
    await query();
    const charges = second.gateway.context.db
      .prepare("SELECT amount_micros FROM usage_records WHERE endpoint = '/v1/3d/generations'")
      .all();
    assert.deepEqual(charges, [{ amount_micros: Math.round(Number(done.amount) * 1e6) }], 'charged once');
  } finally {
    await second.stop();
  }
});

test('with the real clock and a short --sim-3d-ms a task finishes on its own', async () => {
  const gw = await startGateway({ sim3dMs: 300 });
  try {
    const task = (
      await request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, body: { prompt: 'a chess knight', format: 'stl' } })
    ).body;
    let last = { status: task.status as string, progress: Number.parseInt(task.progress, 10) };
    const statuses = [last.status];
    while (last.status !== 'SUCCESS') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const now = (await request(`${gw.url}/v1/3d/generations/${task.task_id}`, 'GET', { token: gw.token })).body;
      assert.ok(Number.parseInt(now.progress, 10) >= last.progress, `${now.progress} after ${last.progress}%`);
      last = { status: now.status, progress: Number.parseInt(now.progress, 10) };
      if (statuses.at(-1) !== now.status) statuses.push(now.status);
      if (now.status === 'SUCCESS') {
        const bytes = Buffer.from(await (await fetch(now.files[0].url)).arrayBuffer());
        assert.equal(bytes.length, 84 + 50 * bytes.readUInt32LE(80));
      }
    }
    const order = ['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS'];
    assert.deepEqual(
      statuses,
      order.filter((status) => statuses.includes(status)),
      'statuses in order',
    );
  } finally {
    await gw.stop();
  }
});

test('--sim-3d-ms and GATEHOUSE_SIM_3D_MS set the task time; the default is 15 s', () => {
  assert.equal(parseServeOptions([], {}).sim3dMs, 15_000);
  assert.equal(parseServeOptions(['--sim-3d-ms', '500'], {}).sim3dMs, 500);
  assert.equal(parseServeOptions([], { GATEHOUSE_SIM_3D_MS: '2500' }).sim3dMs, 2500);
  assert.throws(() => parseServeOptions(['--sim-3d-ms', 'soon'], {}), UsageError);
});

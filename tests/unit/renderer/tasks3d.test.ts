// Unit tests of the 3D page's parts: the GLB reader, the software renderer, and the task store's create, list and look-up.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTasks3dClient, progressOf, taskFailure, type Task3d } from '../../../renderer/src/api/tasks3d.ts';
import { parseGlb } from '../../../renderer/src/features/tasks3d/glb.ts';
import { boundsOf, drawMesh, type Painter } from '../../../renderer/src/features/tasks3d/project.ts';
import { createTasks3dStore } from '../../../renderer/src/stores/tasks3d.ts';
import { ApiError } from '../../../renderer/src/api/http.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';

/** A GLB holding one tetrahedron (4 float32 positions, 12 uint16 indices). */
function tetrahedronGlb(): ArrayBuffer {
  const positions = new Float32Array([0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2]);
  const indices = new Uint16Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
  const bin = new Uint8Array(positions.byteLength + indices.byteLength);
  bin.set(new Uint8Array(positions.buffer), 0);
  bin.set(new Uint8Array(indices.buffer), positions.byteLength);
  const json = {
    asset: { version: '2.0' },
    buffers: [{ byteLength: bin.byteLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.byteLength },
      { buffer: 0, byteOffset: positions.byteLength, byteLength: indices.byteLength },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3' },
      { bufferView: 1, componentType: 5123, count: 12, type: 'SCALAR' },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
  };
  let jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const pad = (4 - (jsonBytes.length % 4)) % 4;
  jsonBytes = new Uint8Array([...jsonBytes, ...new Array(pad).fill(0x20)]);
  const total = 12 + 8 + jsonBytes.length + 8 + bin.length;
  const out = new DataView(new ArrayBuffer(total));
  out.setUint32(0, 0x46546c67, true);
  out.setUint32(4, 2, true);
  out.setUint32(8, total, true);
  out.setUint32(12, jsonBytes.length, true);
  out.setUint32(16, 0x4e4f534a, true);
  new Uint8Array(out.buffer).set(jsonBytes, 20);
  out.setUint32(20 + jsonBytes.length, bin.length, true);
  out.setUint32(24 + jsonBytes.length, 0x004e4942, true);
  new Uint8Array(out.buffer).set(bin, 28 + jsonBytes.length);
  return out.buffer;
}

describe('GLB preview', () => {
  test('reads positions and triangles of a glTF 2.0 binary, and refuses other files plainly', () => {
    const mesh = parseGlb(tetrahedronGlb());
    assert.equal(mesh.positions.length, 12);
    assert.deepEqual([...mesh.indices], [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    assert.throws(() => parseGlb(new TextEncoder().encode('solid not-a-glb padding').buffer), /not a GLB/);
  });

  test('draws every triangle inside the canvas', () => {
    const mesh = parseGlb(tetrahedronGlb());
    assert.deepEqual(boundsOf(mesh).center, [1, 1, 1]);
    const points: Array<[number, number]> = [];
    let fills = 0;
    const painter: Painter = {
      clearRect: () => {},
      beginPath: () => {},
      moveTo: (x, y) => void points.push([x, y]),
      lineTo: (x, y) => void points.push([x, y]),
      closePath: () => {},
      fill: () => void (fills += 1),
      fillStyle: '',
    };
    assert.equal(drawMesh(painter, mesh, 0.7, 200, 100), 4);
    assert.equal(fills, 4);
    for (const [x, y] of points) assert.ok(x >= 0 && x <= 200 && y >= 0 && y <= 100, `point ${x},${y} inside`);
  });
});

describe('3D tasks store', () => {
  const task = (status: string, progress: string, extra: Partial<Task3d> = {}): Task3d => ({
    task_id: 't1',
    model: 'm',
    status,
    progress,
    files: [],
    ...extra,
  });

  test('creates a task with the API token, then lists every task from the admin API (nothing kept in the browser)', async () => {
    const requests: Array<{ url: string; method: string; auth: string | null }> = [];
    const fetchImpl = (async (url: string, init: RequestInit = {}) => {
      requests.push({ url, method: init.method ?? 'GET', auth: new Headers(init.headers).get('authorization') });
      return Response.json(task('SUBMITTED', '0%'));
    }) as unknown as typeof fetch;
    const listed = {
      ...task('IN_PROGRESS', '40%'),
      object: '3d.generation' as const,
      account: 'local',
      prompt: 'chair',
      image_url: null,
      format: 'glb',
    };
    const admin = fakeAdmin({
      listTasks3d: (input) => ({ page: input.query?.p ?? 1, page_size: 10, total: 1, items: [listed as never] }),
      getTask3d: (input) => {
        if (input.params.taskId !== 't1') throw new ApiError('Task t2 does not exist', 404, 'task_id');
        return listed as never;
      },
    });
    const store = createTasks3dStore(admin.call, createTasks3dClient('http://gw', fetchImpl));
    assert.equal(await store.getState().create('key', { model: 'm', prompt: 'chair', format: 'glb' }), true);
    assert.deepEqual(requests[0], { url: 'http://gw/v1/3d/generations', method: 'POST', auth: 'Bearer key' });
    assert.equal(progressOf(store.getState().page!.items[0]!), 40, 'the list is reloaded after a creation');
    await store.getState().setFilter('studio');
    assert.equal(admin.calls.at(-1)!.input.query.account, 'studio', 'the account filter goes to the gateway');
    await store.getState().find(' t1 ');
    assert.equal(store.getState().found?.prompt, 'chair');
    await store.getState().find('t2');
    assert.equal(store.getState().found, null);
    assert.equal(store.getState().findError, 'Task t2 does not exist');
  });

  test('a refused creation says why; failure reasons are found under any of their names', async () => {
    const fetchImpl = (async () =>
      Response.json(
        { error: { message: 'prompt must not be empty', type: 'invalid_request_error', param: 'prompt', code: null } },
        { status: 400 },
      )) as unknown as typeof fetch;
    const store = createTasks3dStore(fakeAdmin({}).call, createTasks3dClient('', fetchImpl));
    assert.equal(await store.getState().create('key', { model: 'm', prompt: '', format: 'glb' }), false);
    assert.equal(store.getState().createError, 'prompt must not be empty');
    assert.equal(taskFailure(task('FAILURE', '30%', { fail_reason: 'boom' })), 'boom');
    assert.equal(taskFailure(task('FAILURE', '30%', { error: { message: 'bad' } })), 'bad');
  });

  test("the page's poll during a click on page 2 reloads page 2, not the page 1 still shown", async () => {
    const admin = fakeAdmin({
      listTasks3d: (input) => ({ page: input.query?.p ?? 1, page_size: 20, total: 40, items: [] }) as never,
    });
    const store = createTasks3dStore(admin.call, createTasks3dClient('', fetch));
    await store.getState().load(1);
    const clicked = store.getState().load(2);
    const polled = store.getState().load();
    await Promise.all([clicked, polled]);
    assert.deepEqual(
      admin.calls.map((call) => call.input.query.p),
      [1, 2, 2],
    );
    assert.equal(store.getState().page?.page, 2);
  });
});

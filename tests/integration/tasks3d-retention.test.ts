// Integration test: 3D tasks and their result files are kept 30 days, then they are gone and the next creation deletes them.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { STORAGE_LIMITS } from '../../electron/gateway/services/storage-limits.ts';
import { manualClock } from '../helpers/clock.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

const DURATION = 1000;

describe('3D task retention', () => {
  const clock = manualClock();
  let gw: TestGateway;
  const create = (prompt: string) => request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, body: { prompt } });
  const query = (id: string) => request(`${gw.url}/v1/3d/generations/${id}`, 'GET', { token: gw.token });
  const files = () => readdirSync(path.join(gw.dataDir, 'files', '3d'));
  const tasks = () =>
    (gw.gateway.context.db.prepare('SELECT task_id FROM tasks3d ORDER BY id').all() as { task_id: string }[]).map((row) => row.task_id);
  before(async () => {
    gw = await startGateway({ clock, sim3dMs: DURATION });
  });
  after(() => gw.stop());

  test('after 30 days a task and its file are not found; the next task deletes them and keeps the spent amount', async () => {
    const old = (await create('a teapot')).body;
    clock.advance(DURATION);
    const done = (await query(old.task_id)).body;
    assert.equal(done.status, 'SUCCESS');
    assert.equal((await fetch(done.files[0].url)).status, 200);
    const used = (await request(`${gw.url}/admin/api/tokens`, 'GET', { token: gw.gateway.adminToken })).body[0].used;

    clock.advance(STORAGE_LIMITS.tasks3dMaxAgeMs);
    assert.equal((await query(old.task_id)).status, 404);
    assert.equal((await fetch(done.files[0].url)).status, 404);
    assert.deepEqual(files(), [done.files[0].url.split('/').at(-1)], 'the file stays until the next creation prunes');

    const fresh = (await create('a kettle')).body;
    assert.deepEqual(tasks(), [fresh.task_id]);
    assert.deepEqual(files(), []);
    assert.equal(
      (await request(`${gw.url}/admin/api/tokens`, 'GET', { token: gw.gateway.adminToken })).body[0].used,
      used,
      'the charge of the deleted task stays spent',
    );
  });
});

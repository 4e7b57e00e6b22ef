// Integration tests of the mode the admin API's status reports: simulate with no enabled channel, relay with one, and the unrouted policy of the run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

describe('status mode and unrouted policy', () => {
  let gw: TestGateway;
  const admin = (method: string, path: string, body?: unknown) =>
    request(`${gw.url}/admin/api${path}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });

  before(async () => {
    gw = await startGateway({ unrouted: 'reject' });
  });
  after(() => gw.stop());

  test('simulate with no channel, relay while one is enabled, simulate again when it is disabled', async () => {
    const first = await admin('GET', '/status');
    assert.deepEqual([first.body.mode, first.body.unrouted], ['simulate', 'reject']);
    const created = await admin('POST', '/channels', { name: 'local', kind: 'openai', base_url: 'http://127.0.0.1:9/v1', models: 'x' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal((await admin('GET', '/status')).body.mode, 'relay');
    await admin('PUT', `/channels/${created.body.id}`, { enabled: false });
    assert.equal((await admin('GET', '/status')).body.mode, 'simulate', 'a disabled channel relays nothing');
  });

  test('the settings view carries the unrouted policy this run started with', async () => {
    const { body } = await admin('GET', '/settings');
    assert.equal(body.effective.unrouted, 'reject');
  });
});

// Integration tests: the portrait library follows its real upstreams' rules: Ark's group limits refused at group creation while a volcengine channel reviews, no empty asset Name sent to Ark, and a platform record's terminal status read before a stale refresh_error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { startFakeVolcengine, type FakeVolcengine } from '../helpers/fake-volcengine.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { dataOf, failureOf, portraitClient } from '../helpers/portrait.ts';

/** A gateway with its data in `dirs` and one service channel added through the admin API. */
async function gatewayWithChannel(dirs: ReturnType<typeof tempDirs>, channel: Record<string, unknown>): Promise<TestGateway> {
  const dataDir = dirs.fresh();
  const gw = await startGateway({ dataDir, secrets: openFileStore(dataDir), refreshIntervalMs: 3_600_000 });
  const added = await request(`${gw.url}/admin/api/channels`, 'POST', { token: gw.gateway.adminToken, body: channel });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return gw;
}

describe('portrait groups and assets while a volcengine channel reviews', () => {
  const dirs = tempDirs();
  let volc: FakeVolcengine;
  let front: TestGateway;
  const api = () => portraitClient(front.url, front.token);

  before(async () => {
    volc = await startFakeVolcengine();
    front = await gatewayWithChannel(dirs, {
      name: 'ark',
      kind: 'volcengine',
      base_url: volc.url,
      region: 'cn-beijing',
      key: `${volc.accessKeyId}:${volc.secretAccessKey}`,
    });
  });
  after(async () => {
    await front.stop();
    await volc.close();
    dirs.removeAll();
  });

  test("a group over Ark's name or description length, or of another type, is refused at creation naming the field and the limit", async () => {
    const refusals = [
      [{ name: 'n'.repeat(65) }, /name must be at most 64 characters.*volcengine/],
      [{ name: 'Faces', description: 'd'.repeat(301) }, /description must be at most 300 characters.*volcengine/],
      [{ name: 'Faces', group_type: 'Custom' }, /group_type must be AIGC.*volcengine/],
    ] as const;
    for (const [body, message] of refusals) assert.match(failureOf(await api().createGroup(body)), message);
    assert.equal(dataOf(await api().listGroups()).total, 0, 'nothing was kept');
    const kept = dataOf(await api().createGroup({ name: 'n'.repeat(64), description: 'd'.repeat(300), group_type: 'AIGC' }));
    assert.match(failureOf(await api().updateGroup(kept.group_id, { name: 'n'.repeat(65) })), /name must be at most 64/);
    assert.equal(dataOf(await api().listGroups()).items[0].name, 'n'.repeat(64), 'the refused rename changed nothing');
  });

  test('an asset without a name reaches Ark without a Name field', async () => {
    const group = dataOf(await api().createGroup({ name: 'Nameless' }));
    dataOf(await api().createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/a.png', asset_type: 'Image' }));
    const created = volc.requests.filter((entry) => entry.action === 'CreateAsset').at(-1)!.body;
    assert.equal('Name' in created, false, JSON.stringify(created));
  });
});

describe('a platform channel whose record carries a stale refresh_error', () => {
  const dirs = tempDirs();
  let remote: HostileUpstream;
  let front: TestGateway;
  const api = () => portraitClient(front.url, front.token);
  const envelope = (data: unknown) => JSON.stringify({ success: true, message: '', data });

  before(async () => {
    remote = await hostileUpstream((received, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (received.method === 'POST' && received.url === '/v1/portrait/groups')
        return void response.end(envelope({ group_id: 'grp_remote' }));
      if (received.method === 'POST' && received.url === '/v1/portrait/assets')
        return void response.end(envelope({ asset_id: 'ast_remote' }));
      // The remote asset ended Active, but its last failed refresh's error is still on the record.
      response.end(
        envelope({
          asset_id: 'ast_remote',
          status: 'Active',
          resolved_url: 'asset://remote-1',
          refresh_error: 'a refresh that failed before the verdict',
          failure_reason: null,
        }),
      );
    });
    front = await gatewayWithChannel(dirs, { name: 'team', kind: 'platform', base_url: remote.url, key: 'remote-token-0123456789' });
  });
  after(async () => {
    await front.stop();
    await remote.close();
    dirs.removeAll();
  });

  test('the terminal status wins: the asset is Active with its resolved URL and no refresh error', async () => {
    const group = dataOf(await api().createGroup({ name: 'Faces' }));
    const asset = dataOf(await api().createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/b.png', asset_type: 'Image' }));
    const read = dataOf(await api().getAsset(asset.asset_id));
    assert.deepEqual([read.status, read.resolved_url, read.refresh_error], ['Active', 'asset://remote-1', null]);
  });
});

describe('a platform channel whose remote group was removed, refused in its own words', () => {
  const dirs = tempDirs();
  let remote: HostileUpstream;
  let front: TestGateway;
  const api = () => portraitClient(front.url, front.token);
  /** The remote platform's groups; its refusal of an unknown one is not worded as Gatehouse words it. */
  const groups = new Set<string>();

  before(async () => {
    let serial = 0;
    remote = await hostileUpstream((received, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const ok = (data: unknown) => response.end(JSON.stringify({ success: true, message: '', data }));
      if (received.method === 'POST' && received.url === '/v1/portrait/groups') {
        const id = `grp_remote_${++serial}`;
        groups.add(id);
        return void ok({ group_id: id });
      }
      if (received.method === 'GET' && received.url.startsWith('/v1/portrait/groups')) {
        const items = [...groups].map((group_id) => ({ group_id }));
        return void ok({ page: 1, page_size: 100, total: items.length, items });
      }
      const body = JSON.parse(received.body.toString('utf8')) as { group_id: string };
      if (!groups.has(body.group_id)) return void response.end(JSON.stringify({ success: false, message: 'unknown group_id' }));
      ok({ asset_id: `ast_remote_${++serial}` });
    });
    front = await gatewayWithChannel(dirs, { name: 'team', kind: 'platform', base_url: remote.url, key: 'remote-token-0123456789' });
  });
  after(async () => {
    await front.stop();
    await remote.close();
    dirs.removeAll();
  });

  test('the refusal is told, and the next registration creates the group there again', async () => {
    const group = dataOf(await api().createGroup({ name: 'Faces' }));
    const register = () => api().createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/c.png', asset_type: 'Image' });
    dataOf(await register());
    groups.clear();
    assert.equal(failureOf(await register()), 'Upstream service call failed: unknown group_id');
    dataOf(await register());
    const created = remote.requests.filter((entry) => entry.method === 'POST' && entry.url === '/v1/portrait/groups');
    assert.equal(created.length, 2, 'the group was created again after its removal was seen');
  });
});

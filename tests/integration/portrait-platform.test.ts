// Integration tests of the `platform` channel: a second Gatehouse in simulate mode is the remote platform for the portrait library and 3D tasks.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { checkGlb } from '../helpers/glb-check.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient } from '../helpers/portrait.ts';

describe('the portrait library and 3D tasks through a platform channel', () => {
  const dirs = tempDirs();
  let remote: TestGateway;
  let front: TestGateway;
  let channelId: string;
  const admin = (method: string, url: string, body?: unknown) =>
    request(`${front.url}/admin/api${url}`, method, { token: front.gateway.adminToken, ...(body !== undefined && { body }) });
  const local = () => portraitClient(front.url, front.token);
  const upstream = () => portraitClient(remote.url, remote.token);

  before(async () => {
    remote = await startGateway({ simReviewMs: 0, sim3dMs: 300 });
    const dataDir = dirs.fresh();
    front = await startGateway({ dataDir, secrets: openFileStore(dataDir), refreshIntervalMs: 3_600_000 });
    const added = await admin('POST', '/channels', {
      name: 'team-platform',
      kind: 'platform',
      base_url: remote.url,
      models: 'remote-3d=sim-3d',
      key: remote.token,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    channelId = added.body.id;
  });
  after(async () => {
    await front.stop({ keepData: true });
    await remote.stop();
    dirs.removeAll();
  });

  let groupId: string;
  const register = async (url: string, assetType = 'Image') =>
    local().createAsset({ group_id: groupId, url, asset_type: assetType, name: 'n' });

  test('the channel is the reviewer; the group and the asset are created remotely and the local record keeps the remote ids', async () => {
    const channels = (await admin('GET', '/channels')).body as { id: string; reviewer: boolean }[];
    assert.deepEqual(
      channels.map((channel) => [channel.id, channel.reviewer]),
      [[channelId, true]],
    );
    groupId = dataOf(await local().createGroup({ name: 'Spokespeople', description: 'faces' })).group_id;
    const asset = dataOf(await register('https://cdn.example.com/anna.png'));
    assert.equal(asset.status, 'Submitted');
    const remoteGroups = dataOf(await upstream().listGroups()).items as { group_id: string; name: string; description: string }[];
    assert.deepEqual(
      remoteGroups.map((group) => [group.name, group.description]),
      [['Spokespeople', 'faces']],
    );
    const remoteAssets = dataOf(await upstream().listAssets()).items as { asset_id: string; url: string; group_id: string }[];
    assert.deepEqual(
      remoteAssets.map((item) => [item.url, item.group_id]),
      [['https://cdn.example.com/anna.png', remoteGroups[0]!.group_id]],
    );

    const done = dataOf(await local().getAsset(asset.asset_id));
    const remoteRecord = dataOf(await upstream().getAsset(remoteAssets[0]!.asset_id));
    assert.equal(done.status, 'Active');
    assert.equal(done.resolved_url, remoteRecord.resolved_url, 'resolved_url comes from the remote record');
    assert.match(done.resolved_url, /^asset:\/\//);
    const listed = (await admin('GET', '/accounts/local/assets')).body.items as { asset_id: string; reviewer: string }[];
    assert.equal(listed.find((item) => item.asset_id === asset.asset_id)!.reviewer, 'team-platform (platform)');
    assert.equal(done.reviewer, undefined, 'the portrait API record keeps its shape');

    dataOf(await register('https://cdn.example.com/second.png'));
    assert.equal(dataOf(await upstream().listGroups()).total, 1, "a group's later assets go to the same remote group");
  });

  test("the simulator's test values give the same outcomes through the relay, with the upstream's messages", async () => {
    const rejected = dataOf(await register('https://cdn.example.com/reject/face.png'));
    const mismatch = dataOf(await register('https://cdn.example.com/clip.mp4'));
    const a = dataOf(await local().getAsset(rejected.asset_id));
    assert.equal(a.status, 'Failed');
    assert.match(a.failure_reason, /^review rejected/);
    const b = dataOf(await local().getAsset(mismatch.asset_id));
    assert.equal(b.status, 'Failed');
    assert.match(b.failure_reason, /^format mismatch: a \.mp4 file is Video, not Image/);

    const before = dataOf(await local().listAssets()).total;
    const message = failureOf(await register('https://files.nowhere.invalid/a.png'));
    assert.equal(message, 'Upstream service call failed: the file at files.nowhere.invalid could not be fetched (host does not resolve)');
    assert.equal(dataOf(await local().listAssets()).total, before, 'a refusal stores nothing locally');

    const flaky = dataOf(await register('https://cdn.example.com/flaky/voice.wav', 'Audio'));
    const first = dataOf(await local().getAsset(flaky.asset_id));
    assert.equal(first.status, 'Submitted');
    assert.match(first.refresh_error, /temporarily unavailable \(simulated flaky upstream, attempt 1\)/);
    const second = dataOf(await local().getAsset(flaky.asset_id));
    assert.match(second.refresh_error, /attempt 2/);
    const third = dataOf(await local().getAsset(flaky.asset_id));
    assert.equal(third.status, 'Active');
    assert.equal(third.refresh_error, null);
  });

  test('the background scan brings remote verdicts home without any single-asset query', async () => {
    const ids = [
      dataOf(await register('https://cdn.example.com/scan-ok.png')).asset_id,
      dataOf(await register('https://cdn.example.com/reject-scan.png')).asset_id,
    ];
    const scan = await admin('POST', '/scan');
    assert.equal(scan.status, 200);
    assert.equal(scan.body.pending, 0);
    const items = dataOf(await local().listAssets('?page_size=100')).items as { asset_id: string; status: string }[];
    assert.deepEqual(
      ids.map((id) => items.find((item) => item.asset_id === id)!.status),
      ['Active', 'Failed'],
    );
  });

  test('a wrong channel token is a refusal naming the bad credential; an asset keeps its reviewer when the channel changes', async () => {
    const assetBefore = dataOf(await register('https://cdn.example.com/kept.png')).asset_id;
    const changed = await admin('PUT', `/channels/${channelId}`, { key: 'sk-gh-not-a-real-token-000000000000' });
    assert.equal(changed.status, 200);
    const message = failureOf(await register('https://cdn.example.com/refused.png'));
    assert.match(message, /^Upstream service call failed: bad channel credential: /);
    const stale = dataOf(await local().getAsset(assetBefore));
    assert.equal(stale.status, 'Submitted');
    assert.match(stale.refresh_error, /bad channel credential/);
    await admin('PUT', `/channels/${channelId}`, { key: remote.token });
    assert.equal(dataOf(await local().getAsset(assetBefore)).status, 'Active');

    await admin('PUT', `/channels/${channelId}`, { enabled: false });
    const simulated = dataOf(await register('https://cdn.example.com/sim.png'));
    const listed = (await admin('GET', '/accounts/local/assets?page_size=100')).body.items as { asset_id: string; reviewer: string }[];
    assert.equal(listed.find((item) => item.asset_id === simulated.asset_id)!.reviewer, 'simulated');
    await admin('PUT', `/channels/${channelId}`, { enabled: true });
  });

  test('3D tasks of a model the channel serves run remotely to SUCCESS and their GLB downloads from the local gateway', async () => {
    const created = await request(`${front.url}/v1/3d/generations`, 'POST', {
      token: front.token,
      body: { model: 'remote-3d', prompt: 'a small teapot', format: 'glb' },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const remoteTasks = remote.gateway.context.db.prepare('SELECT model FROM tasks3d').all() as { model: string }[];
    assert.deepEqual(remoteTasks, [{ model: 'sim-3d' }], 'the task was created remotely, as the upstream model');
    const task = await eventually(async () => {
      const now = (await request(`${front.url}/v1/3d/generations/${created.body.task_id}`, 'GET', { token: front.token })).body;
      return (now.status === 'SUCCESS' || now.status === 'FAILURE') && now;
    }, 'the remote 3D task ends');
    assert.equal(task.status, 'SUCCESS');
    assert.equal(task.files.length, 1);
    assert.ok(task.files[0].url.startsWith(`${front.url}/v1/3d/files/`), 'clients only ever get local URLs');
    const file = await fetch(task.files[0].url);
    assert.equal(file.status, 200);
    checkGlb(Buffer.from(await file.arrayBuffer()));
  });

  test('the channel key is only in the secret store: never in SQLite, the admin API or the journal', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const file of readdirSync(front.dataDir).filter((name) => name.startsWith('gatehouse.sqlite'))) {
      assert.equal(readFileSync(path.join(front.dataDir, file)).includes(Buffer.from(remote.token)), false, file);
    }
    const secrets = readFileSync(path.join(front.dataDir, 'secrets.json'), 'utf8');
    assert.ok(secrets.includes(remote.token));
    const channels = JSON.stringify((await admin('GET', '/channels')).body);
    assert.equal(channels.includes(remote.token), false);
    const journal = JSON.stringify((await admin('GET', '/journal')).body);
    assert.equal(journal.includes(remote.token), false);
  });
});

// Integration tests of the `volcengine` channel: a fake Ark OpenAPI checks every request's signature and plays Processing → Active/Failed, bad keys, unknown groups and throttling.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { startFakeVolcengine, type FakeVolcengine } from '../helpers/fake-volcengine.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient } from '../helpers/portrait.ts';

describe('the portrait library through a volcengine channel', () => {
  const dirs = tempDirs();
  let volc: FakeVolcengine;
  let front: TestGateway;
  let channelId: string;
  let groupId: string;
  const admin = (method: string, url: string, body?: unknown) =>
    request(`${front.url}/admin/api${url}`, method, { token: front.gateway.adminToken, ...(body !== undefined && { body }) });
  const api = () => portraitClient(front.url, front.token);
  const register = async (url: string) => api().createAsset({ group_id: groupId, url, asset_type: 'Image', name: 'face' });

  before(async () => {
    volc = await startFakeVolcengine('cn-shanghai');
    const dataDir = dirs.fresh();
    front = await startGateway({ dataDir, secrets: openFileStore(dataDir), refreshIntervalMs: 3_600_000 });
    const added = await admin('POST', '/channels', {
      name: 'ark',
      kind: 'volcengine',
      base_url: volc.url,
      region: 'cn-shanghai',
      project: 'portraits',
      key: `${volc.accessKeyId}:${volc.secretAccessKey}`,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual([added.body.region, added.body.project, added.body.reviewer], ['cn-shanghai', 'portraits', true]);
    channelId = added.body.id;
    groupId = dataOf(await api().createGroup({ name: 'Faces' })).group_id;
  });
  after(async () => {
    await front.stop({ keepData: true });
    await volc.close();
    dirs.removeAll();
  });

  test('an asset is registered in a remote group, goes Processing then Active with asset://<Id>; every request is signed', async () => {
    const asset = dataOf(await register('https://cdn.example.com/anna.png'));
    assert.deepEqual(
      volc.requests.map((entry) => entry.action),
      ['CreateAssetGroup', 'CreateAsset'],
    );
    assert.equal(volc.requests[0]!.body['ProjectName'], 'portraits');
    const created = volc.requests[1]!.body;
    assert.deepEqual([created['URL'], created['AssetType'], created['Name']], ['https://cdn.example.com/anna.png', 'Image', 'face']);
    assert.ok(volc.groups.has(String(created['GroupId'])));
    const processing = dataOf(await api().getAsset(asset.asset_id));
    assert.equal(processing.status, 'Processing');
    const active = dataOf(await api().getAsset(asset.asset_id));
    assert.equal(active.status, 'Active');
    const [upstreamId] = [...volc.requests]
      .reverse()
      .filter((entry) => entry.action === 'GetAsset')
      .map((entry) => entry.body['Id']);
    assert.equal(active.resolved_url, `asset://${String(upstreamId)}`);
    assert.ok(
      volc.requests.every((entry) => entry.signed),
      'every request carried a valid signature',
    );
    const listed = (await admin('GET', '/accounts/local/assets')).body.items as { reviewer: string }[];
    assert.equal(listed[0]!.reviewer, 'ark (volcengine)');
  });

  test('a URL the upstream cannot download ends Failed with its error; the scan brings it home', async () => {
    const asset = dataOf(await register('https://cdn.example.com/reject/face.png'));
    await admin('POST', '/scan');
    const scan = await admin('POST', '/scan');
    assert.equal(scan.body.pending, 0);
    const record = (
      dataOf(await api().listAssets('?page_size=100')).items as { asset_id: string; status: string; failure_reason: string }[]
    ).find((item) => item.asset_id === asset.asset_id)!;
    assert.equal(record.status, 'Failed');
    assert.equal(record.failure_reason, 'InvalidParameter.DownloadFailed: the URL could not be downloaded');
  });

  test('throttling becomes a refresh error that keeps the status, and the scan reports it', async () => {
    const asset = dataOf(await register('https://cdn.example.com/throttled.png'));
    volc.throttle(1);
    const scan = await admin('POST', '/scan');
    assert.match(scan.body.lastError, /the upstream is throttling requests, try again later \(RequestLimitExceeded/);
    const record = dataOf(await api().getAsset(asset.asset_id));
    assert.equal(record.status, 'Processing', 'the next refresh succeeds and clears the error');
    assert.equal(record.refresh_error, null);
  });

  test('an unknown group id upstream is a refusal naming it; nothing is stored locally', async () => {
    volc.groups.clear();
    const before = dataOf(await api().listAssets()).total;
    const message = failureOf(await register('https://cdn.example.com/lost-group.png'));
    assert.match(message, /^Upstream service call failed: invalid upstream group id \(NotFound\.group_id: /);
    assert.equal(dataOf(await api().listAssets()).total, before);
    const again = dataOf(await register('https://cdn.example.com/new-group.png'));
    assert.equal(again.status, 'Submitted', 'the next registration creates the group upstream again');
    assert.equal(volc.groups.size, 1);
  });

  test('wrong credentials are refused upstream and named as a bad channel credential, without the key', async () => {
    await admin('PUT', `/channels/${channelId}`, { key: `${volc.accessKeyId}:wrong-secret-key-0000` });
    const message = failureOf(await register('https://cdn.example.com/b.png'));
    assert.match(message, /^Upstream service call failed: bad channel credential \(SignatureDoesNotMatch: /);
    assert.equal(volc.requests.at(-1)!.signed, false);
    await admin('PUT', `/channels/${channelId}`, { key: `AKLTsomeoneelse:${volc.secretAccessKey}` });
    assert.match(failureOf(await register('https://cdn.example.com/c.png')), /bad channel credential \(InvalidAccessKey: /);
    const refused = await admin('PUT', `/channels/${channelId}`, { key: 'no-colon-here' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /AK:SK/);
    const test = await admin('POST', `/channels/${channelId}/test`, {});
    assert.equal(test.body.ok, false);
    assert.match(test.body.message, /InvalidAccessKey/);
    await admin('PUT', `/channels/${channelId}`, { key: `${volc.accessKeyId}:${volc.secretAccessKey}` });
    const healthy = await admin('POST', `/channels/${channelId}/test`, {});
    assert.equal(healthy.body.ok, true, JSON.stringify(healthy.body));
  });

  test('the AK/SK is only in the secret store', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const file of readdirSync(front.dataDir).filter((name) => name.startsWith('gatehouse.sqlite'))) {
      assert.equal(readFileSync(path.join(front.dataDir, file)).includes(Buffer.from(volc.secretAccessKey)), false, file);
    }
    assert.equal(JSON.stringify((await admin('GET', '/channels')).body).includes(volc.secretAccessKey), false);
    assert.equal(JSON.stringify((await admin('GET', '/journal')).body).includes(volc.secretAccessKey), false);
  });
});

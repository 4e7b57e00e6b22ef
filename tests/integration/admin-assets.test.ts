// Integration tests of the console's asset management in the admin API: delete assets and groups (scoped by account), register a failed asset again, search and sort by name; the portrait API keeps its shapes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, startGateway, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';

describe('admin asset management', () => {
  let server: TestGateway;
  let admin: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
  const portrait = (method: string, path: string, body?: unknown) =>
    request(`${server.url}/v1/portrait${path}`, method, { token: server.token, ...(body !== undefined && { body }) });
  const register = async (groupId: string, name: string, url = `https://cdn.example.com/${name}.png`) =>
    (await portrait('POST', '/assets', { group_id: groupId, url, asset_type: 'Image', name })).body.data.asset_id as string;

  before(async () => {
    server = await startGateway({ simReviewMs: 0 });
    admin = (method, path, body) =>
      request(`${server.url}/admin/api${path}`, method, { token: server.gateway.adminToken, ...(body !== undefined && { body }) });
    await admin('POST', '/tokens', { account: 'other' });
  });
  after(() => server.stop());

  test('assets are filtered by part of the name and sorted; a bad sort names its field', async () => {
    const groupId = (await portrait('POST', '/groups', { name: 'sorting' })).body.data.group_id;
    for (const name of ['beta', 'Alpha', 'gamma']) await register(groupId, name);
    const list = async (query: string) =>
      (await admin('GET', `/accounts/local/assets?group_id=${groupId}&${query}`)).body.items.map((item: { name: string }) => item.name);
    assert.deepEqual(await list(''), ['beta', 'Alpha', 'gamma']);
    assert.deepEqual(await list('sort=newest'), ['gamma', 'Alpha', 'beta']);
    assert.deepEqual(await list('sort=name'), ['Alpha', 'beta', 'gamma']);
    assert.deepEqual(await list('sort=name_desc'), ['gamma', 'beta', 'Alpha']);
    assert.deepEqual(await list('name=ALPH'), ['Alpha']);
    const bad = await admin('GET', '/accounts/local/assets?sort=size');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'sort');
    const publicList = await portrait('GET', `/assets?group_id=${groupId}&sort=name&name=zzz`);
    assert.deepEqual(
      publicList.body.data.items.map((item: { name: string }) => item.name),
      ['beta', 'Alpha', 'gamma'],
      'the portrait API ignores the console-only options',
    );
  });

  test('deleting an asset removes it for every client; another account cannot delete it', async () => {
    const groupId = (await portrait('POST', '/groups', { name: 'deleting' })).body.data.group_id;
    const assetId = await register(groupId, 'doomed');
    assert.equal((await admin('POST', `/accounts/other/assets/${assetId}/delete`)).status, 404);
    const deleted = await admin('POST', `/accounts/local/assets/${assetId}/delete`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.name, 'doomed');
    assert.equal((await portrait('GET', `/assets/${assetId}`)).body.message, 'Asset does not exist');
    assert.equal((await admin('POST', `/accounts/local/assets/${assetId}/delete`)).status, 404);
  });

  test('deleting a group removes its assets too', async () => {
    const groupId = (await portrait('POST', '/groups', { name: 'whole group' })).body.data.group_id;
    const kept = (await portrait('POST', '/groups', { name: 'kept group' })).body.data.group_id;
    const assetIds = [await register(groupId, 'one'), await register(groupId, 'two')];
    const keptAsset = await register(kept, 'stays');
    assert.equal((await admin('POST', `/accounts/other/groups/${groupId}/delete`)).status, 404);
    const deleted = await admin('POST', `/accounts/local/groups/${groupId}/delete`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.group.name, 'whole group');
    assert.equal(deleted.body.assets_deleted, 2);
    for (const assetId of assetIds) assert.equal((await portrait('GET', `/assets/${assetId}`)).body.success, false);
    assert.equal((await portrait('GET', `/assets/${keptAsset}`)).body.success, true);
    const groups = (await portrait('GET', '/groups?page_size=100')).body.data.items.map((group: { group_id: string }) => group.group_id);
    assert.ok(!groups.includes(groupId) && groups.includes(kept));
  });

  test('a failed asset is registered again with a corrected URL; anything else is refused and changes nothing', async () => {
    const groupId = (await portrait('POST', '/groups', { name: 'again' })).body.data.group_id;
    const failed = await register(groupId, 'typo', 'https://cdn.example.com/reject.png');
    assert.equal((await portrait('GET', `/assets/${failed}`)).body.data.status, 'Failed');
    const healthy = await register(groupId, 'fine');
    const notFailed = await admin('POST', `/accounts/local/assets/${healthy}/reregister`, { url: 'https://cdn.example.com/x.png' });
    assert.equal(notFailed.status, 400);
    assert.match(notFailed.body.error.message, /Only a Failed asset/);
    const badUrl = await admin('POST', `/accounts/local/assets/${failed}/reregister`, { url: 'http://cdn.example.com/x.png' });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.error.param, 'url');
    const refused = await admin('POST', `/accounts/local/assets/${failed}/reregister`, { url: 'https://cdn.example.invalid/x.png' });
    assert.equal(refused.status, 502);
    assert.equal((await portrait('GET', `/assets/${failed}`)).body.data.status, 'Failed', 'still there after a refusal');

    const again = await admin('POST', `/accounts/local/assets/${failed}/reregister`, { url: 'https://cdn.example.com/fixed.png' });
    assert.equal(again.status, 200);
    assert.notEqual(again.body.asset_id, failed);
    assert.equal(again.body.name, 'typo');
    assert.equal(again.body.group_id, groupId);
    assert.equal(again.body.url, 'https://cdn.example.com/fixed.png');
    assert.equal(again.body.status, 'Submitted');
    assert.equal((await portrait('GET', `/assets/${failed}`)).body.message, 'Asset does not exist');
  });
});

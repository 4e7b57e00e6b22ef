// Integration tests of asset registration, the reviewer's test values and the refresh rules of the state table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { manualClock, type ManualClock } from '../helpers/clock.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient, type PortraitClient } from '../helpers/portrait.ts';

const REVIEW_MS = 10_000;

describe('portrait assets', () => {
  let gw: TestGateway;
  let api: PortraitClient;
  let clock: ManualClock;
  let groupId: string;

  before(async () => {
    clock = manualClock();
    // The background scan is pushed far away so that only the single-asset query refreshes here.
    gw = await startGateway({ clock, simReviewMs: REVIEW_MS, refreshIntervalMs: 3_600_000 });
    api = portraitClient(gw.url, gw.token);
    groupId = dataOf(await api.createGroup({ name: 'assets' })).group_id;
  });
  after(() => gw.stop());

  const create = (url: string, assetType = 'Image', extra: Record<string, unknown> = {}) =>
    api.createAsset({ group_id: groupId, url, asset_type: assetType, ...extra });

  test('create answers Submitted with the record, and the spec flow ends Active with an asset:// URL', async () => {
    const asset = dataOf(await create('https://cdn.example.com/people/anna.png', 'Image', { name: 'Anna' }));
    assert.match(asset.asset_id, /^ast_[A-Za-z0-9]{20}$/);
    assert.equal(asset.group_id, groupId);
    assert.equal(asset.status, 'Submitted');
    assert.equal(asset.name, 'Anna');
    assert.equal(asset.asset_type, 'Image');
    assert.equal(asset.resolved_url, null);
    assert.equal('id' in asset, false);

    const early = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(early.status, 'Processing', 'the first query moves it into review');
    clock.advance(REVIEW_MS);
    const done = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(done.status, 'Active');
    assert.match(done.resolved_url, /^asset:\/\/\S+$/);
    assert.equal(done.refresh_error, null);
    assert.equal(done.failure_reason, null);
    assert.ok(Date.parse(done.updated_at) > Date.parse(asset.updated_at));
  });

  test('the list never refreshes from upstream; the single query stores what it learnt', async () => {
    const asset = dataOf(await create('https://cdn.example.com/list-lag.mp4', 'Video'));
    clock.advance(REVIEW_MS);
    const listed = dataOf(await api.listAssets(`?group_id=${groupId}&page_size=100`)).items.find(
      (item: { asset_id: string }) => item.asset_id === asset.asset_id,
    );
    assert.equal(listed.status, 'Submitted', 'list statuses lag until a query or the scan');
    assert.equal(dataOf(await api.getAsset(asset.asset_id)).status, 'Active');
    const relisted = dataOf(await api.listAssets(`?status=Active&page_size=100`)).items.map((item: { asset_id: string }) => item.asset_id);
    assert.ok(relisted.includes(asset.asset_id), 'the stored result shows in the list');
  });

  test('a path containing "reject" ends Failed with the reason', async () => {
    const asset = dataOf(await create('https://cdn.example.com/reject/face.jpg'));
    clock.advance(REVIEW_MS);
    const failed = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(failed.status, 'Failed');
    assert.equal(failed.resolved_url, null);
    assert.match(failed.failure_reason, /review rejected/);
  });

  for (const [url, type] of [
    ['https://cdn.example.com/clip.mp4', 'Image'],
    ['https://cdn.example.com/photo.png', 'Audio'],
    ['https://cdn.example.com/song.mp3', 'Video'],
  ] as const) {
    test(`an extension that contradicts the type (${url.split('/').pop()} as ${type}) ends Failed as a format mismatch`, async () => {
      const asset = dataOf(await create(url, type));
      clock.advance(REVIEW_MS);
      const failed = dataOf(await api.getAsset(asset.asset_id));
      assert.equal(failed.status, 'Failed');
      assert.match(failed.failure_reason, /format mismatch/);
    });
  }

  test('a terminal asset is never refreshed again', async () => {
    const asset = dataOf(await create('https://cdn.example.com/stays.wav', 'Audio'));
    clock.advance(REVIEW_MS);
    const active = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(active.status, 'Active');
    clock.advance(REVIEW_MS);
    const again = dataOf(await api.getAsset(asset.asset_id));
    assert.deepEqual(again, active, 'nothing changes, not even updated_at');
  });

  test('a "flaky" URL: two refreshes fail and set refresh_error, the third clears it', async () => {
    const asset = dataOf(await create('https://cdn.example.com/flaky/voice.wav', 'Audio'));
    clock.advance(REVIEW_MS);
    const first = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(first.status, 'Submitted');
    assert.match(first.refresh_error, /temporarily unavailable/);
    const second = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(second.status, 'Submitted');
    assert.match(second.refresh_error, /attempt 2/);
    const third = dataOf(await api.getAsset(asset.asset_id));
    assert.equal(third.status, 'Active');
    assert.equal(third.refresh_error, null);
  });

  test('a host ending in .invalid fails at creation with the upstream message and stores nothing', async () => {
    const before = dataOf(await api.listAssets('?page_size=1')).total;
    const message = failureOf(await create('https://files.example.invalid/a.png'));
    assert.match(message, /^Upstream service call failed/);
    assert.equal(dataOf(await api.listAssets('?page_size=1')).total, before);
  });

  test('every validation condition has its message, checked in the documented order, and stores nothing', async () => {
    const before = dataOf(await api.listAssets('?page_size=1')).total;
    const cases: [unknown, string][] = [
      [{ url: 'https://a.example/x.png', asset_type: 'Image' }, 'group_id must not be empty'],
      [{ group_id: '  ', url: 'https://a.example/x.png', asset_type: 'Image' }, 'group_id must not be empty'],
      [{ group_id: groupId, asset_type: 'Image' }, 'url must not be empty'],
      [{ group_id: groupId, url: '', asset_type: 'Image' }, 'url must not be empty'],
      [{ group_id: groupId, url: 'https://a.example/x.png' }, 'asset_type must be Image / Video / Audio'],
      [{ group_id: groupId, url: 'https://a.example/x.png', asset_type: 'image' }, 'asset_type must be Image / Video / Audio'],
      [{ group_id: groupId, url: 'https://a.example/x.png', asset_type: 'IMAGE' }, 'asset_type must be Image / Video / Audio'],
      [{ group_id: groupId, url: 'https://a.example/x.png', asset_type: 'Picture' }, 'asset_type must be Image / Video / Audio'],
      [{ group_id: groupId, url: 'http://a.example/x.png', asset_type: 'Image' }, 'url must be a well-formed https:// URL'],
      [{ group_id: groupId, url: 'https://', asset_type: 'Image' }, 'url must be a well-formed https:// URL'],
      [{ group_id: groupId, url: 'not a url', asset_type: 'Image' }, 'url must be a well-formed https:// URL'],
      [{ group_id: groupId, url: 'https://user:pw@a.example/x.png', asset_type: 'Image' }, 'url must be a well-formed https:// URL'],
      [{ group_id: groupId, url: 'ftp://a.example/x.png', asset_type: 'Image' }, 'url must be a well-formed https:// URL'],
      [{ group_id: 'grp_unknown', url: 'https://a.example/x.png', asset_type: 'Image' }, 'Group does not exist'],
      [{ group_id: 7, url: 'https://a.example/x.png', asset_type: 'Image' }, 'group_id must be a string'],
      [{ group_id: groupId, url: ['https://a.example/x.png'], asset_type: 'Image' }, 'url must be a string'],
      [{ group_id: groupId, url: 'https://a.example/x.png', asset_type: 'Image', name: 5 }, 'name must be a string'],
      ['"just a string"', 'Request body must be a JSON object'],
      ['[1, 2]', 'Request body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      assert.equal(failureOf(await api.createAsset(body)), message, JSON.stringify(body));
    }
    assert.equal(dataOf(await api.listAssets('?page_size=1')).total, before);
  });

  test('rename changes only the name and moves updated_at; other fields are ignored', async () => {
    const asset = dataOf(await create('https://cdn.example.com/rename.png'));
    clock.advance(1000);
    const renamed = dataOf(await api.updateAsset(asset.asset_id, { name: 'New name', url: 'https://evil.example/x.png' }));
    assert.equal(renamed.name, 'New name');
    assert.equal(renamed.url, asset.url);
    assert.equal(renamed.status, asset.status);
    assert.equal(Date.parse(renamed.updated_at) - Date.parse(asset.updated_at), 1000);
    assert.equal(failureOf(await api.updateAsset(asset.asset_id, {})), 'Nothing to update: give name');
    assert.equal(failureOf(await api.updateAsset(asset.asset_id, { name: 3 })), 'name must be a string');
  });

  test('unknown ids and internal numeric ids answer "Asset does not exist"', async () => {
    assert.equal(failureOf(await api.getAsset('ast_nope')), 'Asset does not exist');
    assert.equal(failureOf(await api.getAsset('1')), 'Asset does not exist');
    assert.equal(failureOf(await api.updateAsset('1', { name: 'x' })), 'Asset does not exist');
  });

  test('list filters by group_id and status; an unknown status is an error, an unknown group an empty page', async () => {
    const other = dataOf(await api.createGroup({ name: 'other' })).group_id;
    const inOther = dataOf(await api.createAsset({ group_id: other, url: 'https://x.example/o.png', asset_type: 'Image' }));
    const page = dataOf(await api.listAssets(`?group_id=${other}`));
    assert.deepEqual(
      page.items.map((item: { asset_id: string }) => item.asset_id),
      [inOther.asset_id],
    );
    assert.equal(page.total, 1);
    const submitted = dataOf(await api.listAssets('?status=Submitted&page_size=100'));
    assert.ok(submitted.items.every((item: { status: string }) => item.status === 'Submitted'));
    assert.ok(submitted.items.some((item: { asset_id: string }) => item.asset_id === inOther.asset_id));
    assert.equal(failureOf(await api.listAssets('?status=active')), 'status must be one of Submitted / Processing / Active / Failed');
    assert.deepEqual(dataOf(await api.listAssets('?group_id=grp_missing')), { page: 1, page_size: 20, total: 0, items: [] });
  });
});

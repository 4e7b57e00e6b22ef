// Integration tests of authentication (every credential carrier, 401 vs 403) and of account isolation of portrait data.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { manualClock, type ManualClock } from '../helpers/clock.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient } from '../helpers/portrait.ts';

describe('authentication', () => {
  let gw: TestGateway;
  let clock: ManualClock;
  before(async () => {
    clock = manualClock();
    gw = await startGateway({ clock });
  });
  after(() => gw.stop());

  const groups = () => `${gw.url}/v1/portrait/groups`;

  test('the token is accepted as Bearer, x-api-key, x-goog-api-key and ?key=', async () => {
    const carriers: Record<string, string>[] = [
      { authorization: `Bearer ${gw.token}` },
      { authorization: `bearer ${gw.token}` },
      { 'x-api-key': gw.token },
      { 'x-goog-api-key': gw.token },
    ];
    for (const headers of carriers) {
      const response = await request(groups(), 'GET', { headers });
      assert.equal(response.status, 200, JSON.stringify(Object.keys(headers)));
      assert.equal(response.body.success, true);
    }
    const byQuery = await request(`${groups()}?key=${gw.token}`, 'GET');
    assert.equal(byQuery.status, 200);
  });

  test('missing or unknown tokens get HTTP 401 in the portrait envelope', async () => {
    assert.match(failureOf(await request(groups(), 'GET'), 401), /Missing API token/);
    assert.match(failureOf(await request(groups(), 'GET', { token: 'sk-gh-wrong' }), 401), /Invalid API token/);
    assert.match(failureOf(await request(groups(), 'GET', { headers: { authorization: 'Basic abc' } }), 401), /Missing/);
  });

  test('revoked, expired and quota-exhausted tokens get HTTP 403', async () => {
    const { tokens } = gw.gateway.context;
    const revoked = tokens.create({ account: 'local' });
    tokens.revoke(revoked.token.token_id);
    assert.match(failureOf(await request(groups(), 'GET', { token: revoked.secret }), 403), /revoked/);

    const expiring = tokens.create({ account: 'local', expiresAt: clock.now() + 60_000 });
    assert.equal((await request(groups(), 'GET', { token: expiring.secret })).status, 200);
    clock.advance(60_000);
    assert.match(failureOf(await request(groups(), 'GET', { token: expiring.secret }), 403), /expired/);

    const empty = tokens.create({ account: 'local', quota: 0 });
    assert.match(failureOf(await request(groups(), 'GET', { token: empty.secret }), 403), /quota/);
  });

  test('a request refused by auth changes nothing', async () => {
    const before = dataOf(await request(groups(), 'GET', { token: gw.token })).total;
    failureOf(await request(groups(), 'POST', { body: { name: 'sneaky' } }), 401);
    assert.equal(dataOf(await request(groups(), 'GET', { token: gw.token })).total, before);
  });
});

describe('account isolation', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.stop());

  test('tokens of one account share data; another account sees nothing and cannot touch it', async () => {
    const { tokens } = gw.gateway.context;
    const second = tokens.create({ account: 'local', name: 'laptop' }).secret;
    const stranger = tokens.create({ account: 'someone-else' }).secret;
    const mine = portraitClient(gw.url, gw.token);
    const mineToo = portraitClient(gw.url, second);
    const theirs = portraitClient(gw.url, stranger);

    const group = dataOf(await mine.createGroup({ name: 'private' }));
    const asset = dataOf(await mine.createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/me.png', asset_type: 'Image' }));

    assert.equal(dataOf(await mineToo.getAsset(asset.asset_id)).asset_id, asset.asset_id);
    assert.equal(dataOf(await mineToo.listGroups()).items[0].group_id, group.group_id);

    assert.equal(dataOf(await theirs.listGroups()).total, 0);
    assert.equal(dataOf(await theirs.listAssets()).total, 0);
    assert.equal(dataOf(await theirs.listAssets(`?group_id=${group.group_id}`)).total, 0);
    assert.equal(failureOf(await theirs.getAsset(asset.asset_id)), 'Asset does not exist');
    assert.equal(failureOf(await theirs.updateAsset(asset.asset_id, { name: 'x' })), 'Asset does not exist');
    assert.equal(failureOf(await theirs.updateGroup(group.group_id, { name: 'x' })), 'Group does not exist');
    assert.equal(
      failureOf(await theirs.createAsset({ group_id: group.group_id, url: 'https://a.example/a.png', asset_type: 'Image' })),
      'Group does not exist',
    );
    const untouched = dataOf(await mine.getAsset(asset.asset_id));
    assert.equal(untouched.name, '');
    assert.equal(dataOf(await mine.listGroups()).items[0].name, 'private');
  });
});

// Integration tests of the paging rule of portrait lists: defaults, the 100 cap, and out-of-range or non-numeric values.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, portraitClient, type PortraitClient } from '../helpers/portrait.ts';

const GROUPS = 105;

describe('paging', () => {
  let gw: TestGateway;
  let api: PortraitClient;
  let all: string[];
  before(async () => {
    gw = await startGateway();
    api = portraitClient(gw.url, gw.token);
    all = [];
    for (let i = 0; i < GROUPS; i++) all.push(dataOf(await api.createGroup({ name: `g${i}` })).group_id);
  });
  after(() => gw.stop());

  const ids = (page: { items: { group_id: string }[] }) => page.items.map((item) => item.group_id);

  test('defaults are page 1 of 20', async () => {
    const page = dataOf(await api.listGroups());
    assert.deepEqual({ ...page, items: undefined }, { page: 1, page_size: 20, total: GROUPS, items: undefined });
    assert.deepEqual(ids(page), all.slice(0, 20));
  });

  test('pages follow each other without gaps or repeats', async () => {
    const seen: string[] = [];
    for (let p = 1; p <= 6; p++) seen.push(...ids(dataOf(await api.listGroups(`?p=${p}&page_size=20`))));
    assert.deepEqual(seen, all);
  });

  test('page_size above 100 is capped at 100 and the answer says so', async () => {
    const page = dataOf(await api.listGroups('?page_size=500'));
    assert.equal(page.page_size, 100);
    assert.equal(page.items.length, 100);
    const last = dataOf(await api.listGroups('?p=2&page_size=100'));
    assert.deepEqual(ids(last), all.slice(100));
  });

  test('a page past the end is empty but keeps the total', async () => {
    assert.deepEqual(dataOf(await api.listGroups('?p=99')), { page: 99, page_size: 20, total: GROUPS, items: [] });
  });

  for (const [query, page, pageSize] of [
    ['?p=0', 1, 20],
    ['?p=-3', 1, 20],
    ['?p=abc&page_size=xyz', 1, 20],
    ['?p=1.5&page_size=2.5', 1, 20],
    ['?page_size=0', 1, 20],
    ['?page_size=-5', 1, 20],
    ['?p=&page_size=', 1, 20],
    ['?p=2&page_size=7', 2, 7],
    ['?p=99999999999999999999', 1, 20],
  ] as const) {
    test(`"${query}" is normalised to page ${page} of ${pageSize}`, async () => {
      const result = dataOf(await api.listGroups(query));
      assert.equal(result.page, page);
      assert.equal(result.page_size, pageSize);
      assert.deepEqual(ids(result), all.slice((page - 1) * pageSize, page * pageSize));
    });
  }

  test('asset lists follow the same rule', async () => {
    const group = all[0]!;
    for (let i = 0; i < 3; i++) {
      dataOf(await api.createAsset({ group_id: group, url: `https://cdn.example.com/${i}.png`, asset_type: 'Image' }));
    }
    const page = dataOf(await api.listAssets('?p=0&page_size=2'));
    assert.equal(page.page, 1);
    assert.equal(page.page_size, 2);
    assert.equal(page.total, 3);
    assert.equal(page.items.length, 2);
    assert.equal(dataOf(await api.listAssets('?page_size=1000')).page_size, 100);
  });
});

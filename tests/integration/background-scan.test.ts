// Integration tests of the background scan: it refreshes every pending asset of every account, records errors and carries on.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';

describe('background scan', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ refreshIntervalMs: 100, simReviewMs: 0 });
  });
  after(() => gw.stop());

  test('pending assets of all accounts reach their verdicts without any single-asset query', async () => {
    const other = gw.gateway.context.tokens.create({ account: 'other' }).secret;
    const registered: { api: ReturnType<typeof portraitClient>; id: string; expect: string }[] = [];
    for (const token of [gw.token, other]) {
      const api = portraitClient(gw.url, token);
      const group = dataOf(await api.createGroup({ name: 'scan' })).group_id;
      for (const [url, expect] of [
        ['https://cdn.example.com/ok.png', 'Active'],
        ['https://cdn.example.com/reject.png', 'Failed'],
        ['https://cdn.example.com/flaky.png', 'Active'],
      ]) {
        const asset = dataOf(await api.createAsset({ group_id: group, url, asset_type: 'Image' }));
        registered.push({ api, id: asset.asset_id, expect: expect! });
      }
    }
    const statuses = async () =>
      Promise.all(
        registered.map(async ({ api, id }) => {
          const items = dataOf(await api.listAssets('?page_size=100')).items as {
            asset_id: string;
            status: string;
            refresh_error: string | null;
          }[];
          return items.find((item) => item.asset_id === id)!;
        }),
      );

    let sawFlakyError = false;
    for (let scans = 0; scans < 50; scans++) {
      await once(gw.gateway.events, 'scan.finished');
      const now = await statuses();
      if (now.some((item) => item.refresh_error?.includes('temporarily unavailable'))) sawFlakyError = true;
      if (now.every((item, i) => item.status === registered[i]!.expect)) break;
    }
    const final = await statuses();
    assert.deepEqual(
      final.map((item) => item.status),
      registered.map((entry) => entry.expect),
    );
    assert.ok(sawFlakyError, 'a failing refresh was recorded in refresh_error while the scan carried on');
    assert.ok(
      final.every((item) => item.refresh_error === null),
      'a later successful refresh cleared the error',
    );
  });
});

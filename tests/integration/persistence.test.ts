// Integration tests of durability: a restart keeps every record and the scan resumes; kill -9 loses no acknowledged write.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { serveCli } from '../helpers/cli.ts';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, tempDataDir } from '../helpers/gateway.ts';
import { dataOf, portraitClient } from '../helpers/portrait.ts';

const REVIEW_MS = 10_000;

test('stopping and starting on the same data dir keeps groups, assets and tokens, and the scan picks up pending assets', async () => {
  const dataDir = tempDataDir();
  // The review's time comes from this clock: the asset is still under review at the restart however slow the machine is.
  const clock = manualClock();
  const first = await startGateway({ dataDir, clock, refreshIntervalMs: 3_600_000, simReviewMs: REVIEW_MS });
  const api = portraitClient(first.url, first.token);
  const group = dataOf(await api.createGroup({ name: 'kept', description: 'across restarts' }));
  const asset = dataOf(
    await api.createAsset({ group_id: group.group_id, url: 'https://cdn.example.com/kept.png', asset_type: 'Image', name: 'k' }),
  );
  assert.equal(asset.status, 'Submitted');
  await first.stop({ keepData: true });

  const second = await startGateway({ dataDir, clock, refreshIntervalMs: 50, simReviewMs: REVIEW_MS });
  try {
    assert.equal(second.token, '', 'no new first token on a data dir that has accounts');
    const again = portraitClient(second.url, first.token);
    assert.deepEqual(dataOf(await again.listGroups()).items, [group]);
    const listed = dataOf(await again.listAssets()).items;
    assert.equal(listed.length, 1);
    // Scans may already have found it still under review (Processing); nothing else of it changed.
    assert.ok(['Submitted', 'Processing'].includes(listed[0].status), listed[0].status);
    assert.deepEqual({ ...listed[0], status: undefined, updated_at: undefined }, { ...asset, status: undefined, updated_at: undefined });
    clock.advance(REVIEW_MS);
    for (let i = 0; i < 20 && dataOf(await again.listAssets()).items[0].status !== 'Active'; i++) {
      await once(second.gateway.events, 'scan.finished');
    }
    assert.equal(dataOf(await again.listAssets()).items[0].status, 'Active', 'the scan refreshed the asset left pending');
  } finally {
    await second.stop();
  }
});

test('kill -9 right after acknowledged writes loses none of them', async () => {
  const dataDir = tempDataDir();
  try {
    const server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    const token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    const api = portraitClient(server.url, token);
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push(dataOf(await api.createGroup({ name: `durable ${i}` })).group_id);
    const renamed = dataOf(await api.updateGroup(created[0]!, { name: 'renamed before the crash' }));
    await server.stop('SIGKILL');

    const restarted = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      const items = dataOf(await portraitClient(restarted.url, token).listGroups('?page_size=100')).items;
      assert.deepEqual(
        items.map((g: { group_id: string }) => g.group_id),
        created,
      );
      assert.deepEqual(items[0], renamed);
    } finally {
      await restarted.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

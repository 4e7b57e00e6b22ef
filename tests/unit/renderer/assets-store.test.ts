// Unit tests of the assets store: paging and filter queries, registration with field errors, live changes, stale answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Asset, Group, Page } from '../../../shared/portrait.ts';
import { ApiError } from '../../../renderer/src/api/http.ts';
import { createAssetsStore, LIST_PAGE_SIZE } from '../../../renderer/src/stores/assets.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';
import { heldAnswers } from '../../helpers/held-answer.ts';

const asset = (id: string, status: Asset['status'], updatedAt: string, extra: Partial<Asset> = {}): Asset => ({
  asset_id: id,
  group_id: 'grp_1',
  url: `https://cdn.example.com/${id}.png`,
  asset_type: 'Image',
  name: id,
  status,
  resolved_url: null,
  refresh_error: null,
  failure_reason: null,
  created_at: '2026-01-01T00:00:00.000+00:00',
  updated_at: updatedAt,
  ...extra,
});
const page = <T>(items: T[], total = items.length, p = 1): Page<T> => ({ page: p, page_size: LIST_PAGE_SIZE, total, items });
const group: Group = { group_id: 'grp_1', name: 'g', description: '', group_type: 'AIGC', created_at: 'x', updated_at: 'x' };

describe('assets store', () => {
  test('lists ask for the account, page, page size and filters', async () => {
    const admin = fakeAdmin({ listAssets: () => page([]), listGroups: () => page([group]) });
    const store = createAssetsStore(admin.call, 'local');
    await store.getState().setFilter({ groupId: 'grp_1', status: 'Failed' });
    await store.getState().loadGroups(2);
    assert.deepEqual(admin.calls[0], {
      name: 'listAssets',
      input: { params: { account: 'local' }, query: { p: 1, page_size: LIST_PAGE_SIZE, group_id: 'grp_1', status: 'Failed' } },
    });
    assert.deepEqual(admin.calls[1]!.input.query, { p: 2, page_size: LIST_PAGE_SIZE });
    assert.equal(store.getState().groups?.items[0]?.group_id, 'grp_1');
  });

  test('registration reloads the last page and selects the new asset; a refusal names the field', async () => {
    const created = asset('ast_new', 'Submitted', '2026-01-01T00:00:01.000+00:00');
    let refuse = false;
    const admin = fakeAdmin({
      createAsset: () => {
        if (refuse) throw new ApiError('url must be a well-formed https:// URL', 400, 'url');
        return created;
      },
      listAssets: (input) => page([created], 11, input.query?.p ?? 1),
    });
    const store = createAssetsStore(admin.call, 'local');
    store.setState({ assets: page([], 10) });
    const ok = await store.getState().register({ group_id: 'grp_1', url: 'https://x/a.png', asset_type: 'Image' });
    assert.equal(ok.ok, true);
    assert.equal(admin.calls.at(-1)!.input.query.p, 2, 'the 11th asset is on page 2');
    assert.equal(store.getState().detail?.asset_id, 'ast_new');

    refuse = true;
    const refused = await store.getState().register({ group_id: 'grp_1', url: 'http://x', asset_type: 'Image' });
    assert.deepEqual(refused, { ok: false, message: 'url must be a well-formed https:// URL', param: 'url' });
  });

  test('a change event updates the row and the detail panel of the same account only', () => {
    const store = createAssetsStore(fakeAdmin({}).call, 'local');
    const pending = asset('ast_1', 'Processing', '2026-01-01T00:00:01.000+00:00');
    store.setState({ assets: page([pending]), detail: pending });
    store.getState().applyChange('someone-else', { ...pending, status: 'Failed' });
    assert.equal(store.getState().assets?.items[0]?.status, 'Processing');
    const active = asset('ast_1', 'Active', '2026-01-01T00:00:02.000+00:00', { resolved_url: 'asset://x' });
    store.getState().applyChange('local', active);
    assert.equal(store.getState().assets?.items[0]?.status, 'Active');
    assert.equal(store.getState().detail?.resolved_url, 'asset://x');
  });

  test('a list answer older than an event never puts an older status back', async () => {
    const stale = asset('ast_1', 'Processing', '2026-01-01T00:00:01.000+00:00');
    const admin = fakeAdmin({ listAssets: () => page([stale]) });
    const store = createAssetsStore(admin.call, 'local');
    store.getState().applyChange('local', asset('ast_1', 'Active', '2026-01-01T00:00:05.000+00:00'));
    await store.getState().loadAssets(1);
    assert.equal(store.getState().assets?.items[0]?.status, 'Active');
  });

  test('refresh now marks the asset busy, applies the answer, and reports a failure', async () => {
    let release!: () => void;
    const admin = fakeAdmin({
      refreshAsset: () => new Promise((resolve) => (release = () => resolve(asset('ast_1', 'Active', '2026-01-02T00:00:00.000+00:00')))),
    });
    const store = createAssetsStore(admin.call, 'local');
    store.setState({ assets: page([asset('ast_1', 'Processing', '2026-01-01T00:00:00.000+00:00')]) });
    const running = store.getState().refreshNow('ast_1');
    assert.deepEqual(store.getState().refreshing, ['ast_1']);
    release();
    await running;
    assert.deepEqual(store.getState().refreshing, []);
    assert.equal(store.getState().assets?.items[0]?.status, 'Active');

    const failing = createAssetsStore(
      fakeAdmin({ refreshAsset: () => Promise.reject(new ApiError('Asset does not exist', 404)) }).call,
      'local',
    );
    await failing.getState().refreshNow('ast_gone');
    assert.equal(failing.getState().refreshError, 'Asset does not exist');
  });

  test('switching the account clears what belonged to the previous one and reloads', async () => {
    const admin = fakeAdmin({ listAssets: () => page([]), listGroups: () => page([]) });
    const store = createAssetsStore(admin.call, 'local');
    store.setState({ detail: asset('ast_1', 'Active', 'x'), filter: { groupId: 'grp_1', status: 'Active' } });
    await store.getState().setAccount('ci-bot');
    assert.equal(store.getState().detail, null);
    assert.deepEqual(store.getState().filter, { groupId: '', status: '' });
    assert.deepEqual(new Set(admin.calls.map((call) => call.input.params.account)), new Set(['ci-bot']));
  });

  test('the group a filter named is deleted while its first list is under way: the whole list is loaded, not left loading', async () => {
    const { answers, next } = heldAnswers<Page<Asset>>();
    const admin = fakeAdmin({ listGroups: () => page([]), listAssets: next });
    const store = createAssetsStore(admin.call, 'local');
    const filtered = store.getState().setFilter({ groupId: 'grp_1' });
    store.getState().applyGroupDeleted('local', 'grp_1');
    assert.equal(answers.length, 2, 'the whole list is asked for');
    assert.equal(admin.calls.at(-1)?.input.query.group_id, undefined);
    answers[0]!.resolve(page([asset('ast_1', 'Active', 'x')]));
    await filtered;
    answers[1]!.resolve(page([asset('ast_1', 'Active', 'x'), asset('ast_2', 'Active', 'x')]));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(store.getState().assets?.items.length, 2);
    assert.equal(store.getState().assetsLoading, false);
  });

  test("the previous account's lists, landing after the switch, are never shown; nor a filter's the page has left", async () => {
    const { answers: groupAnswers, next: nextGroups } = heldAnswers<Page<Group>>();
    const { answers: assetAnswers, next: nextAssets } = heldAnswers<Page<Asset>>();
    const admin = fakeAdmin({ listGroups: nextGroups, listAssets: nextAssets });
    const store = createAssetsStore(admin.call, 'local');
    const local = Promise.all([store.getState().loadGroups(1), store.getState().loadAssets(1)]);
    const switched = store.getState().setAccount('ci-bot');
    // The previous account's answers land first, while the new account's are still under way.
    groupAnswers[0]!.resolve(page([{ ...group, name: 'local group' }]));
    assetAnswers[0]!.resolve(page([asset('ast_local', 'Active', 'x')]));
    await local;
    assert.equal(store.getState().groups, null, 'no group of the account left behind');
    assert.equal(store.getState().assets, null);
    groupAnswers[1]!.resolve(page([{ ...group, name: 'ci group' }]));
    assetAnswers[1]!.resolve(page([asset('ast_ci', 'Active', 'x')]));
    await switched;
    assert.equal(store.getState().groups?.items[0]?.name, 'ci group');
    assert.equal(store.getState().assets?.items[0]?.asset_id, 'ast_ci');
    assert.equal(store.getState().assetsLoading, false);

    const all = store.getState().loadAssets(1);
    const failed = store.getState().setFilter({ status: 'Failed' });
    // The unfiltered list lands first, while the filtered one is under way: the page has left it.
    assetAnswers[2]!.resolve(page([asset('ast_ci', 'Active', 'x'), asset('ast_other', 'Active', 'x')]));
    await all;
    assert.notEqual(store.getState().assets?.items.length, 2, 'the unfiltered list is not shown');
    assetAnswers[3]!.resolve(page([]));
    await failed;
    assert.deepEqual(store.getState().assets?.items, []);
  });
});

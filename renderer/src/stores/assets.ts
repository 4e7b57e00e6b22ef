// Groups and assets of the current account: paged lists, filters and order, registration with field errors, refresh now, polling, deletion, registering a failed asset again, live changes.
import { create } from 'zustand';
import type { AssetCreateBody, AssetSort, GroupCreateBody, GroupUpdateBody } from '../../../shared/admin-api.ts';
import { TERMINAL_STATUSES, type AdminAsset as Asset, type AssetStatus, type Group, type Page } from '../../../shared/portrait.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { ApiError } from '../api/http.ts';
import { loadsInOrder } from './loads-in-order.ts';
import { messageOf } from './storage.ts';

/** Page size of both console lists. */
export const LIST_PAGE_SIZE = 10;

/** The outcome of a form submission: ok, or a message tied to a field when the gateway named one. */
export type FormResult<T> = { ok: true; value: T } | { ok: false; message: string; param: string | null };

export interface AssetFilter {
  groupId: string;
  status: AssetStatus | '';
}

export interface AssetsState {
  account: string;
  groups: Page<Group> | null;
  groupsLoading: boolean;
  groupsError: string | null;
  assets: Page<Asset> | null;
  assetsLoading: boolean;
  assetsError: string | null;
  filter: AssetFilter;
  /** Part of an asset name the list is narrowed to, any case ('' for all). */
  search: string;
  /** The list's order. */
  sort: AssetSort;
  /** The asset in the detail panel (kept current by live events even when it leaves the page). */
  detail: Asset | null;
  /** The latest version of each asset seen in an event, so a slower list answer never shows an older status. */
  seen: Record<string, Asset>;
  /** Ids of assets being refreshed now. */
  refreshing: string[];
  refreshError: string | null;
  setAccount(account: string): Promise<void>;
  loadGroups(page?: number): Promise<void>;
  createGroup(body: GroupCreateBody): Promise<FormResult<Group>>;
  updateGroup(groupId: string, body: GroupUpdateBody): Promise<FormResult<Group>>;
  loadAssets(page?: number): Promise<void>;
  setFilter(change: Partial<AssetFilter>): Promise<void>;
  setSearch(search: string): Promise<void>;
  setSort(sort: AssetSort): Promise<void>;
  register(body: AssetCreateBody): Promise<FormResult<Asset>>;
  select(asset: Asset | null): void;
  refreshNow(assetId: string): Promise<void>;
  /** Asks the gateway about one asset without showing it as busy; resolves false once the asset is terminal. */
  poll(assetId: string): Promise<boolean>;
  /** Applies an `asset.changed` event. */
  applyChange(account: string, asset: Asset): void;
  /** Applies an `asset.created` event: the shown page is read again, so counts and pages stay right. */
  applyCreated(account: string, asset: Asset): void;
  /** Applies a `group.changed` event: a shown group is replaced, a new one reloads the shown page. */
  applyGroup(account: string, group: Group): void;
  /** Deletes an asset from the gateway; resolves with the gateway's refusal, if any. */
  deleteAsset(assetId: string): Promise<string | null>;
  /** Deletes a group and its assets from the gateway; resolves with the gateway's refusal, if any. */
  deleteGroup(groupId: string): Promise<string | null>;
  /** Registers a failed asset again with a corrected URL; the new asset becomes the detail. */
  reregister(assetId: string, url: string): Promise<FormResult<Asset>>;
  /** Applies an `asset.deleted` event (this console's deletions too). */
  applyDeleted(account: string, assetId: string): void;
  /** Applies a `group.deleted` event. */
  applyGroupDeleted(account: string, groupId: string): void;
}

/** Ids of the shown assets (the page and the detail) that are not terminal yet: the ones to poll. */
export function pendingAssetIds(state: Pick<AssetsState, 'assets' | 'detail'>): string[] {
  const shown = [...(state.assets?.items ?? []), ...(state.detail ? [state.detail] : [])];
  return [...new Set(shown.filter((asset) => !TERMINAL_STATUSES.includes(asset.status)).map((asset) => asset.asset_id))];
}

function formError<T>(error: unknown): FormResult<T> {
  return { ok: false, message: messageOf(error), param: error instanceof ApiError ? error.param : null };
}

/** The newer of two versions of an asset (timestamps share one RFC 3339 form, so they compare as text). */
const newer = (a: Asset, b: Asset | undefined): Asset => (b && b.updated_at > a.updated_at ? b : a);

const replaceIn = (page: Page<Asset> | null, asset: Asset): Page<Asset> | null =>
  page && page.items.some((item) => item.asset_id === asset.asset_id)
    ? { ...page, items: page.items.map((item) => (item.asset_id === asset.asset_id ? asset : item)) }
    : page;

export function createAssetsStore(call: AdminCall, account: string) {
  // An answer for the account, filter or sort the page has left, or older than one shown, never replaces the list.
  const groupLoads = loadsInOrder();
  const assetLoads = loadsInOrder();
  // The pages last asked for: a reload after an event reads them, not the pages shown, which a click may be leaving.
  let groupsPage = 1;
  let assetsPage = 1;
  return create<AssetsState>((set, get) => ({
    account,
    groups: null,
    groupsLoading: false,
    groupsError: null,
    assets: null,
    assetsLoading: false,
    assetsError: null,
    filter: { groupId: '', status: '' },
    search: '',
    sort: 'created',
    detail: null,
    seen: {},
    refreshing: [],
    refreshError: null,

    async setAccount(next) {
      if (next === get().account) return;
      set({
        account: next,
        groups: null,
        assets: null,
        detail: null,
        seen: {},
        filter: { groupId: '', status: '' },
        search: '',
        sort: 'created',
      });
      groupLoads.moved();
      assetLoads.moved();
      await Promise.all([get().loadGroups(1), get().loadAssets(1)]);
    },

    async loadGroups(page = groupsPage) {
      groupsPage = page;
      set({ groupsLoading: true });
      const account = get().account;
      await groupLoads.run(
        () => call('listGroups', { params: { account }, query: { p: page, page_size: LIST_PAGE_SIZE } }),
        (groups, latest) => set({ groups, groupsError: null, groupsLoading: !latest }),
        (error, latest) => set({ groupsError: messageOf(error), groupsLoading: !latest }),
      );
    },

    async createGroup(body) {
      try {
        const group = await call('createGroup', { params: { account: get().account }, body });
        // New groups come last in creation order: show the last page.
        const total = (get().groups?.total ?? 0) + 1;
        await get().loadGroups(Math.ceil(total / LIST_PAGE_SIZE));
        return { ok: true, value: group };
      } catch (error) {
        return formError(error);
      }
    },

    async updateGroup(groupId, body) {
      try {
        const group = await call('updateGroup', { params: { account: get().account, groupId }, body });
        groupLoads.changed();
        const groups = get().groups;
        if (groups) set({ groups: { ...groups, items: groups.items.map((item) => (item.group_id === groupId ? group : item)) } });
        return { ok: true, value: group };
      } catch (error) {
        return formError(error);
      }
    },

    async loadAssets(page = assetsPage) {
      assetsPage = page;
      set({ assetsLoading: true });
      const { account, search, sort } = get();
      const { groupId, status } = get().filter;
      const query = {
        p: page,
        page_size: LIST_PAGE_SIZE,
        ...(groupId && { group_id: groupId }),
        ...(status && { status }),
        ...(search.trim() && { name: search.trim() }),
        ...(sort !== 'created' && { sort }),
      };
      await assetLoads.run(
        () => call('listAssets', { params: { account }, query }),
        (assets, latest) => {
          const seen = get().seen;
          const items = assets.items.map((item) => newer(item, seen[item.asset_id]));
          set({ assets: { ...assets, items }, assetsError: null, assetsLoading: !latest });
        },
        (error, latest) => set({ assetsError: messageOf(error), assetsLoading: !latest }),
      );
    },

    async setFilter(change) {
      set({ filter: { ...get().filter, ...change } });
      assetLoads.moved();
      await get().loadAssets(1);
    },

    async setSearch(search) {
      set({ search: search.trim() });
      assetLoads.moved();
      await get().loadAssets(1);
    },

    async setSort(sort) {
      set({ sort });
      assetLoads.moved();
      await get().loadAssets(1);
    },

    async register(body) {
      try {
        const asset = await call('createAsset', { params: { account: get().account }, body });
        const total = (get().assets?.total ?? 0) + 1;
        await get().loadAssets(Math.ceil(total / LIST_PAGE_SIZE));
        set({ detail: newer(asset, get().seen[asset.asset_id]) });
        return { ok: true, value: asset };
      } catch (error) {
        return formError(error);
      }
    },

    select: (asset) => set({ detail: asset, refreshError: null }),

    async refreshNow(assetId) {
      set({ refreshing: [...get().refreshing, assetId], refreshError: null });
      try {
        const asset = await call('refreshAsset', { params: { account: get().account, assetId } });
        get().applyChange(get().account, asset);
      } catch (error) {
        set({ refreshError: messageOf(error) });
      } finally {
        set({ refreshing: get().refreshing.filter((id) => id !== assetId) });
      }
    },

    async poll(assetId) {
      const account = get().account;
      const asset = await call('refreshAsset', { params: { account, assetId } });
      get().applyChange(account, asset);
      return !TERMINAL_STATUSES.includes(asset.status);
    },

    applyCreated(eventAccount, asset) {
      if (eventAccount !== get().account) return;
      set({ seen: { ...get().seen, [asset.asset_id]: newer(asset, get().seen[asset.asset_id]) } });
      if (get().assets) void get().loadAssets();
    },

    applyGroup(eventAccount, group) {
      if (eventAccount !== get().account) return;
      const groups = get().groups;
      if (groups?.items.some((item) => item.group_id === group.group_id)) {
        groupLoads.changed();
        set({ groups: { ...groups, items: groups.items.map((item) => (item.group_id === group.group_id ? group : item)) } });
      } else if (groups) {
        void get().loadGroups();
      }
    },

    async deleteAsset(assetId) {
      const account = get().account;
      try {
        await call('deleteAsset', { params: { account, assetId } });
      } catch (error) {
        return messageOf(error);
      }
      get().applyDeleted(account, assetId);
      return null;
    },

    async deleteGroup(groupId) {
      const account = get().account;
      try {
        await call('deleteGroup', { params: { account, groupId } });
      } catch (error) {
        return messageOf(error);
      }
      get().applyGroupDeleted(account, groupId);
      return null;
    },

    async reregister(assetId, url) {
      const account = get().account;
      try {
        const asset = await call('reregisterAsset', { params: { account, assetId }, body: { url } });
        get().applyDeleted(account, assetId);
        set({ detail: newer(asset, get().seen[asset.asset_id]) });
        return { ok: true, value: asset };
      } catch (error) {
        return formError(error);
      }
    },

    applyDeleted(eventAccount, assetId) {
      if (eventAccount !== get().account) return;
      const { [assetId]: _gone, ...seen } = get().seen;
      const shown = get().assets?.items.some((item) => item.asset_id === assetId);
      set({ seen, ...(get().detail?.asset_id === assetId && { detail: null }) });
      // The page is read again, so it fills up and its total stays right.
      if (shown) void get().loadAssets();
    },

    applyGroupDeleted(eventAccount, groupId) {
      if (eventAccount !== get().account) return;
      const { filter, detail, groups } = get();
      set({
        ...(filter.groupId === groupId && { filter: { ...filter, groupId: '' } }),
        ...(detail?.group_id === groupId && { detail: null }),
      });
      if (groups) void get().loadGroups();
      // The filter named the group: its list is left, and the whole one loaded (every moved() is followed by a load).
      if (filter.groupId === groupId) {
        assetLoads.moved();
        void get().loadAssets(1);
      } else if (get().assets) void get().loadAssets();
    },

    applyChange(eventAccount, asset) {
      if (eventAccount !== get().account) return;
      const latest = newer(asset, get().seen[asset.asset_id]);
      const detail = get().detail;
      set({
        seen: { ...get().seen, [asset.asset_id]: latest },
        assets: replaceIn(get().assets, latest),
        ...(detail?.asset_id === asset.asset_id && { detail: newer(latest, detail) }),
      });
    },
  }));
}

export type AssetsStore = ReturnType<typeof createAssetsStore>;

// Portrait asset rules: register with the upstream reviewer, list without refreshing, read with a refresh, rename, delete, register a failed one again.
import type { Asset, Page } from '../../../shared/portrait.ts';
import { publicId } from '../ids.ts';
import { UpstreamError, UpstreamGroupMissing } from '../errors.ts';
import type { CallContext, ProviderSelector, Reviewer, ReviewerRef, ReviewerSelector } from '../providers/types.ts';
import type { AssetRow, AssetsRepo } from '../storage/assets-repo.ts';
import type { GroupRow, GroupsRepo } from '../storage/groups-repo.ts';
import type { RemoteGroupsRepo } from '../storage/remote-groups-repo.ts';
import type { Clock } from '../time.ts';
import type { AssetChangeListener, AssetRefresher } from './asset-refresh.ts';
import { GatewayError, invalid, notFound } from '../errors.ts';
import type { Paging } from './paging.ts';
import { MESSAGES, parseAssetCreate, type AssetCreateInput, type AssetListFilter } from './portrait-input.ts';
import { presentAsset, presentPage } from './portrait-present.ts';

export interface AssetsServiceDeps {
  assets: AssetsRepo;
  groups: GroupsRepo;
  /** Gives the simulated reviewer (the call's bundle's). */
  providers: ProviderSelector;
  /** Chooses the reviewer of new assets: a service channel's, or the simulator's. Absent: always the simulator's. */
  reviewers?: ReviewerSelector;
  /** The remote id of each local group on each service channel. Needed with `reviewers`. */
  remoteGroups?: RemoteGroupsRepo;
  refresher: AssetRefresher;
  clock: Clock;
  /** Told after an asset was registered, whichever client asked. */
  onCreated?: AssetChangeListener;
  /** Told after an asset was renamed (refreshes tell the refresher's listener). */
  onRenamed?: AssetChangeListener;
  /** Told after an asset was deleted (the row as it was). */
  onDeleted?: AssetChangeListener;
}

export class AssetsService {
  private readonly deps: AssetsServiceDeps;
  constructor(deps: AssetsServiceDeps) {
    this.deps = deps;
  }

  /** Registers an asset: the upstream is asked first, and nothing is stored when it refuses. `call`: the request, when there is one. */
  async create<T = Asset>(
    accountId: number,
    input: AssetCreateInput,
    call?: CallContext,
    present: (row: AssetRow) => T = presentAsset as (row: AssetRow) => T,
  ): Promise<T> {
    const { assets, groups, providers, clock } = this.deps;
    const group = groups.find(accountId, input.groupId);
    if (!group) throw notFound(MESSAGES.groupNotFound, 'group_id');
    // Fixtures decide before the service channels: a scripted review asks no upstream, a strict-mode miss is refused.
    const bundle = providers.for(call);
    const ref: ReviewerRef = bundle.fixture
      ? { channelId: null, label: 'label' in bundle.fixture ? `fixture ${bundle.fixture.label.slice(0, 120)}` : 'simulated' }
      : (this.deps.reviewers?.current() ?? { channelId: null, label: 'simulated' });
    let upstreamId: string;
    try {
      const reviewer = ref.channelId === null ? bundle.reviewer : await this.deps.reviewers!.of(ref.channelId);
      const groupUpstreamId = ref.channelId === null ? undefined : await this.remoteGroupOf(reviewer, group, ref.channelId);
      ({ upstreamId } = await reviewer.submit({
        url: input.url,
        assetType: input.assetType,
        name: input.name,
        ...(groupUpstreamId !== undefined && { groupUpstreamId }),
      }));
    } catch (error) {
      // A remote group removed upstream is forgotten, so the next registration creates it again.
      if (error instanceof UpstreamGroupMissing && ref.channelId !== null) this.deps.remoteGroups?.forget(group.id, ref.channelId);
      // A fixture's scripted error (or a strict-mode refusal) reaches the caller as it is.
      if (error instanceof GatewayError) throw error;
      const detail = error instanceof UpstreamError ? `: ${error.message}` : '';
      throw new GatewayError('upstream_failed', `${MESSAGES.upstreamFailed}${detail}`);
    }
    const now = clock.now();
    const id = assets.insert({
      asset_id: publicId('ast'),
      account_id: accountId,
      group_ref: group.id,
      url: input.url,
      asset_type: input.assetType,
      name: input.name,
      status: 'Submitted',
      upstream_id: upstreamId,
      created_at: now,
      updated_at: now,
      reviewer_channel_id: ref.channelId,
      reviewer_label: ref.label,
    });
    const row = assets.findById(id)!;
    this.deps.onCreated?.(row);
    return present(row);
  }

  /** The group's id on a remote reviewer, created there on its first asset (reviewers without groups get none). */
  private async remoteGroupOf(reviewer: Reviewer, group: GroupRow, channelId: string): Promise<string | undefined> {
    if (!reviewer.createGroup) return undefined;
    const known = this.deps.remoteGroups?.find(group.id, channelId);
    if (known !== undefined) return known;
    const created = await reviewer.createGroup({ name: group.name, description: group.description, groupType: group.group_type });
    this.deps.remoteGroups?.set(group.id, channelId, created);
    return created;
  }

  /** A page of stored assets; never asks the upstream. An unknown group filter gives an empty page. */
  list<T = Asset>(
    accountId: number,
    filter: AssetListFilter,
    paging: Paging,
    present: (row: AssetRow) => T = presentAsset as (row: AssetRow) => T,
  ): Page<T> {
    const { assets, groups } = this.deps;
    let groupRef: number | undefined;
    if (filter.groupId !== undefined) {
      const group = groups.find(accountId, filter.groupId);
      if (!group) return presentPage(paging, 0, [], present);
      groupRef = group.id;
    }
    const { rows, total } = assets.page(
      accountId,
      {
        ...(groupRef !== undefined && { groupRef }),
        ...(filter.status && { status: filter.status }),
        ...(filter.nameContains && { nameContains: filter.nameContains }),
        ...(filter.sort && { sort: filter.sort }),
      },
      paging.pageSize,
      paging.offset,
    );
    return presentPage(paging, total, rows, present);
  }

  /** One asset; a non-terminal one is refreshed from the upstream and stored before answering. */
  async get<T = Asset>(
    accountId: number,
    assetId: string,
    call?: CallContext,
    present: (row: AssetRow) => T = presentAsset as (row: AssetRow) => T,
  ): Promise<T> {
    const row = this.deps.assets.find(accountId, assetId);
    if (!row) throw notFound(MESSAGES.assetNotFound, 'asset_id');
    return present(await this.deps.refresher.refresh(row, call));
  }

  /** Deletes an asset from this gateway (the reviewer is not told: it keeps no state a caller can reach); answers it as it was. */
  delete(accountId: number, assetId: string): Asset {
    const row = this.deps.assets.find(accountId, assetId);
    if (!row) throw notFound(MESSAGES.assetNotFound, 'asset_id');
    this.deps.assets.delete(row.id);
    this.deps.onDeleted?.(row);
    return presentAsset(row);
  }

  /**
   * Registers a failed asset again with a corrected URL: a new asset of the same group, type and name (a failed
   * asset stays failed, as the status rules say), and the failed one is deleted once the new one is registered.
   * Nothing changes when the reviewer refuses the new URL.
   */
  async reregister(accountId: number, assetId: string, url: string): Promise<Asset> {
    const row = this.deps.assets.find(accountId, assetId);
    if (!row) throw notFound(MESSAGES.assetNotFound, 'asset_id');
    if (row.status !== 'Failed') throw invalid('Only a Failed asset can be registered again', 'asset_id');
    const input = parseAssetCreate({ group_id: row.group_id, url, asset_type: row.asset_type, name: row.name });
    const created = await this.create(accountId, input);
    this.delete(accountId, assetId);
    return created;
  }

  rename(accountId: number, assetId: string, name: string): Asset {
    const { assets, clock } = this.deps;
    const row = assets.find(accountId, assetId);
    if (!row) throw notFound(MESSAGES.assetNotFound, 'asset_id');
    assets.rename(row.id, name, clock.now());
    const renamed = assets.findById(row.id)!;
    this.deps.onRenamed?.(renamed);
    return presentAsset(renamed);
  }
}

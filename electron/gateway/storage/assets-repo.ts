// Repository of portrait assets; reads are scoped by account, the pending scan reads across accounts.
import type { AssetStatus, AssetType } from '../../../shared/portrait.ts';
import type { Db } from './database.ts';
import { ReadCache } from './read-cache.ts';

/** A portrait asset row joined with its group's public id. `id` is internal. */
export interface AssetRow {
  id: number;
  asset_id: string;
  account_id: number;
  group_ref: number;
  group_id: string;
  url: string;
  asset_type: AssetType;
  name: string;
  status: AssetStatus;
  upstream_id: string;
  resolved_url: string | null;
  refresh_error: string | null;
  failure_reason: string | null;
  created_at: number;
  updated_at: number;
  /** The service channel the asset was registered with; null: the simulated reviewer. */
  reviewer_channel_id: string | null;
  /** How the console names that reviewer (`simulated`, or the channel's name and kind at registration). */
  reviewer_label: string;
  /** Refreshes that failed in a row (the background scan backs off after a few). */
  refresh_failures: number;
  /** The background scan leaves the asset alone until then (epoch ms); null: at the next scan. */
  next_refresh_at: number | null;
}

export type NewAsset = Omit<
  AssetRow,
  | 'id'
  | 'group_id'
  | 'resolved_url'
  | 'refresh_error'
  | 'failure_reason'
  | 'refresh_failures'
  | 'next_refresh_at'
  | 'reviewer_channel_id'
  | 'reviewer_label'
> & { reviewer_channel_id?: string | null; reviewer_label?: string };

/** Optional filters and order of the asset list. */
export interface AssetFilter {
  groupRef?: number;
  status?: AssetStatus;
  /** Part of the name, any case (ASCII letters). */
  nameContains?: string;
  /** Default `created`: oldest first. */
  sort?: 'created' | 'newest' | 'name' | 'name_desc';
}

const ORDER: Record<NonNullable<AssetFilter['sort']>, string> = {
  created: 'a.id',
  newest: 'a.id DESC',
  name: 'a.name COLLATE NOCASE, a.id',
  name_desc: 'a.name COLLATE NOCASE DESC, a.id DESC',
};

/** What a status refresh writes back. */
export interface RefreshResult {
  status: AssetStatus;
  resolved_url: string | null;
  failure_reason: string | null;
  refresh_error: string | null;
  updated_at: number;
}

/**
 * An asset with its group's public id, from a correlated subquery rather than a JOIN: every asset has its group (a
 * foreign key), and SQLite plans the JOIN with a Bloom filter built on every run (38 µs against 6 µs per asset found).
 */
const SELECT = `SELECT a.*, (SELECT g.group_id FROM portrait_groups g WHERE g.id = a.group_ref) AS group_id FROM portrait_assets a`;

/** Most list totals remembered at once (one per account and filter); past it they are counted again. */
const TOTALS_LIMIT = 1000;

/** The assets table, for its totals cache and for `noteWrite` from a repository that writes it too (a group deleted with its assets). */
export const ASSETS_TABLE = 'portrait_assets';

export class AssetsRepo {
  private readonly db: Db;
  /** List totals by account and filter, until the assets are written here or another connection commits. */
  private readonly totals: ReadCache<Map<string, number>>;
  constructor(db: Db) {
    this.db = db;
    this.totals = new ReadCache(db, ASSETS_TABLE, () => new Map());
  }

  insert(asset: NewAsset): number {
    this.totals.changed();
    const result = this.db
      .prepare(
        `INSERT INTO portrait_assets
           (asset_id, account_id, group_ref, url, asset_type, name, status, upstream_id, created_at, updated_at, reviewer_channel_id, reviewer_label)
         VALUES (@asset_id, @account_id, @group_ref, @url, @asset_type, @name, @status, @upstream_id, @created_at, @updated_at,
           @reviewer_channel_id, @reviewer_label)`,
      )
      .run({ ...asset, reviewer_channel_id: asset.reviewer_channel_id ?? null, reviewer_label: asset.reviewer_label ?? 'simulated' });
    return Number(result.lastInsertRowid);
  }

  find(accountId: number, assetId: string): AssetRow | undefined {
    return this.db.prepare(`${SELECT} WHERE a.account_id = ? AND a.asset_id = ?`).get(accountId, assetId) as AssetRow | undefined;
  }

  findById(id: number): AssetRow | undefined {
    return this.db.prepare(`${SELECT} WHERE a.id = ?`).get(id) as AssetRow | undefined;
  }

  /**
   * One page of an account's assets (oldest first unless sorted otherwise), with the filtered total. The page is found on
   * the covering index first (the offset skips index entries, not joined rows), then only its rows are read; the total is
   * remembered until the next insert, delete, rename or status change of the assets, or another connection's commit.
   */
  page(accountId: number, filter: AssetFilter, limit: number, offset: number): { rows: AssetRow[]; total: number } {
    const where = ['a.account_id = @accountId'];
    if (filter.groupRef !== undefined) where.push('a.group_ref = @groupRef');
    if (filter.status !== undefined) where.push('a.status = @status');
    if (filter.nameContains !== undefined) where.push('instr(lower(a.name), lower(@nameContains)) > 0');
    const params = stripUndefined({ accountId, groupRef: filter.groupRef, status: filter.status, nameContains: filter.nameContains });
    const clause = where.join(' AND ');
    const order = ORDER[filter.sort ?? 'created'];
    const rows = this.db
      .prepare(
        `${SELECT} WHERE a.id IN (SELECT a.id FROM portrait_assets a WHERE ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset) ORDER BY ${order}`,
      )
      .all({ ...params, limit, offset }) as AssetRow[];
    const totals = this.totals.get();
    const key = JSON.stringify([accountId, filter.groupRef ?? null, filter.status ?? null, filter.nameContains ?? null]);
    let total = totals.get(key);
    if (total === undefined) {
      total = (this.db.prepare(`SELECT COUNT(*) AS n FROM portrait_assets a WHERE ${clause}`).get(params) as { n: number }).n;
      if (totals.size >= TOTALS_LIMIT) totals.clear();
      totals.set(key, total);
    }
    return { rows, total };
  }

  /** Deletes an asset (by internal id). */
  delete(id: number): void {
    this.db.prepare('DELETE FROM portrait_assets WHERE id = ?').run(id);
    this.totals.changed();
  }

  rename(id: number, name: string, now: number): void {
    this.db.prepare('UPDATE portrait_assets SET name = ?, updated_at = ? WHERE id = ?').run(name, now, id);
    this.totals.changed();
  }

  /**
   * Stores a refresh outcome, but only while the asset is still non-terminal, so a late answer
   * can never move a finished asset. Returns whether the row changed.
   */
  applyRefresh(id: number, result: RefreshResult): boolean {
    const changed = this.db
      .prepare(
        `UPDATE portrait_assets SET status = @status, resolved_url = @resolved_url, failure_reason = @failure_reason,
           refresh_error = @refresh_error, updated_at = @updated_at
         WHERE id = @id AND status IN ('Submitted', 'Processing')`,
      )
      .run({ id, ...result });
    if (changed.changes > 0) this.totals.changed();
    return changed.changes > 0;
  }

  /** Records how the last refresh went for the scan's backoff: failures in a row, and when the scan may ask again (null: next scan). */
  noteRefreshStreak(id: number, failures: number, nextRefreshAt: number | null): void {
    this.db.prepare('UPDATE portrait_assets SET refresh_failures = ?, next_refresh_at = ? WHERE id = ?').run(failures, nextRefreshAt, id);
  }

  /** Non-terminal assets of every account after `afterId` that are due at `now` (not backing off), ascending, at most `limit`, with their reviewer. */
  pendingDue(afterId: number, limit: number, now: number): { id: number; reviewer_channel_id: string | null }[] {
    return this.db
      .prepare(
        `SELECT id, reviewer_channel_id FROM portrait_assets
         WHERE status IN ('Submitted', 'Processing') AND id > ? AND (next_refresh_at IS NULL OR next_refresh_at <= ?) ORDER BY id LIMIT ?`,
      )
      .all(afterId, now, limit) as { id: number; reviewer_channel_id: string | null }[];
  }

  /** How many assets of every account are not terminal yet. */
  countPending(): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM portrait_assets WHERE status IN ('Submitted', 'Processing')`).get() as { n: number })
      .n;
  }

  /** Internal ids of non-terminal assets of every account after `afterId`, ascending, at most `limit`. */
  pendingIds(afterId: number, limit: number): number[] {
    const rows = this.db
      .prepare(`SELECT id FROM portrait_assets WHERE status IN ('Submitted', 'Processing') AND id > ? ORDER BY id LIMIT ?`)
      .all(afterId, limit) as { id: number }[];
    return rows.map((row) => row.id);
  }
}

function stripUndefined(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

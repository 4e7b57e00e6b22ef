// Turns stored portrait rows into the API's records: public ids only, RFC 3339 timestamps.
import type { AdminAsset, Asset, Group, Page } from '../../../shared/portrait.ts';
import type { AssetRow } from '../storage/assets-repo.ts';
import type { GroupRow } from '../storage/groups-repo.ts';
import { rfc3339 } from '../time.ts';
import type { Paging } from './paging.ts';

export function presentGroup(row: GroupRow): Group {
  return {
    group_id: row.group_id,
    name: row.name,
    description: row.description,
    group_type: row.group_type,
    created_at: rfc3339(row.created_at),
    updated_at: rfc3339(row.updated_at),
  };
}

export function presentAsset(row: AssetRow): Asset {
  return {
    asset_id: row.asset_id,
    group_id: row.group_id,
    url: row.url,
    asset_type: row.asset_type,
    name: row.name,
    status: row.status,
    resolved_url: row.resolved_url,
    refresh_error: row.refresh_error,
    failure_reason: row.failure_reason,
    created_at: rfc3339(row.created_at),
    updated_at: rfc3339(row.updated_at),
  };
}

/** The console's view of an asset: the API record and its reviewer. */
export function presentAdminAsset(row: AssetRow): AdminAsset & { reviewer: string } {
  return { ...presentAsset(row), reviewer: row.reviewer_label };
}

export function presentPage<R, T>(paging: Paging, total: number, rows: R[], present: (row: R) => T): Page<T> {
  return { page: paging.page, page_size: paging.pageSize, total, items: rows.map(present) };
}

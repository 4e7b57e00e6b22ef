// Portrait library contract: the group and asset records and enumerations exactly as the API returns them.

/** Asset types accepted by the portrait API (exact spelling, first letter capital). */
export const ASSET_TYPES = ['Image', 'Video', 'Audio'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Asset review statuses; `Active` and `Failed` are terminal. */
export const ASSET_STATUSES = ['Submitted', 'Processing', 'Active', 'Failed'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

/** Statuses after which the upstream is never asked again. */
export const TERMINAL_STATUSES: readonly AssetStatus[] = ['Active', 'Failed'];

/** Default `group_type` when a group is created without one. */
export const DEFAULT_GROUP_TYPE = 'AIGC';

/** Paging limits of every portrait list. */
export const PAGE_DEFAULT = 1;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** A group as returned by the API. Timestamps are RFC 3339 with offset and fractional seconds. */
export interface Group {
  group_id: string;
  name: string;
  description: string;
  group_type: string;
  created_at: string;
  updated_at: string;
}

/** An asset as returned by the API. Optional facts are `null` when absent. */
export interface Asset {
  asset_id: string;
  group_id: string;
  url: string;
  asset_type: AssetType;
  name: string;
  status: AssetStatus;
  /** `asset://<upstream id>` once `Active`, otherwise null. */
  resolved_url: string | null;
  /** The last status refresh's error, cleared by the next successful refresh. */
  refresh_error: string | null;
  /** Why a `Failed` asset failed (format mismatch, review rejected, …). */
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** An asset as the console sees it (admin API and admin events): also which reviewer it went to (`simulated`, or a channel's name and kind). */
export interface AdminAsset extends Asset {
  /** Always set by the gateway (optional only for records made before reviewers were shown). */
  reviewer?: string;
}

/** The `data` of every paged list response. */
export interface Page<T> {
  page: number;
  page_size: number;
  total: number;
  items: T[];
}

/** The portrait response envelope. */
export type Envelope<T> = { success: true; message: ''; data: T } | { success: false; message: string };

// Validates portrait request bodies and queries into typed inputs, with the spec's error messages.
import type { AssetSort } from '../../../shared/admin-api.ts';
import { ASSET_STATUSES, ASSET_TYPES, DEFAULT_GROUP_TYPE, type AssetStatus, type AssetType } from '../../../shared/portrait.ts';
import { FIELD_LIMITS, tooLongMessage } from '../../../shared/field-limits.ts';
import { invalid } from '../errors.ts';

/** The spec's error messages, shared by validation and tests' expectations in docs/portrait-library.md. */
export const MESSAGES = {
  bodyNotObject: 'Request body must be a JSON object',
  groupNameEmpty: 'Group name must not be empty',
  groupIdEmpty: 'group_id must not be empty',
  urlEmpty: 'url must not be empty',
  urlNotHttps: 'url must be a well-formed https:// URL',
  assetType: 'asset_type must be Image / Video / Audio',
  groupNotFound: 'Group does not exist',
  assetNotFound: 'Asset does not exist',
  nothingToUpdate: 'Nothing to update: give name and/or description',
  assetNameMissing: 'Nothing to update: give name',
  upstreamFailed: 'Upstream service call failed',
} as const;

export interface GroupCreateInput {
  name: string;
  description: string;
  groupType: string;
}
export interface GroupUpdateInput {
  name?: string;
  description?: string;
}
export interface AssetCreateInput {
  groupId: string;
  url: string;
  assetType: AssetType;
  name: string;
}
export interface AssetListFilter {
  groupId?: string;
  status?: AssetStatus;
  /** Admin API only: part of the name, any case. */
  nameContains?: string;
  /** Admin API only: the order (default oldest first). */
  sort?: AssetSort;
}

export function parseGroupCreate(body: unknown): GroupCreateInput {
  const fields = objectBody(body);
  const name = optionalString(fields, 'name', FIELD_LIMITS.groupName);
  if (name === undefined || name.trim() === '') throw invalid(MESSAGES.groupNameEmpty, 'name');
  const groupType = optionalString(fields, 'group_type', FIELD_LIMITS.groupType);
  const description = optionalString(fields, 'description', FIELD_LIMITS.groupDescription);
  return {
    name: name.trim(),
    description: description ?? '',
    groupType: groupType === undefined || groupType.trim() === '' ? DEFAULT_GROUP_TYPE : groupType.trim(),
  };
}

export function parseGroupUpdate(body: unknown): GroupUpdateInput {
  const fields = objectBody(body);
  const name = optionalString(fields, 'name', FIELD_LIMITS.groupName);
  const description = optionalString(fields, 'description', FIELD_LIMITS.groupDescription);
  if (name !== undefined && name.trim() === '') throw invalid(MESSAGES.groupNameEmpty, 'name');
  if (name === undefined && description === undefined) throw invalid(MESSAGES.nothingToUpdate);
  return { ...(name !== undefined && { name: name.trim() }), ...(description !== undefined && { description }) };
}

export function parseAssetCreate(body: unknown): AssetCreateInput {
  const fields = objectBody(body);
  const groupId = optionalString(fields, 'group_id');
  if (groupId === undefined || groupId.trim() === '') throw invalid(MESSAGES.groupIdEmpty, 'group_id');
  const url = optionalString(fields, 'url', FIELD_LIMITS.url);
  if (url === undefined || url.trim() === '') throw invalid(MESSAGES.urlEmpty, 'url');
  const assetType = fields['asset_type'];
  if (!ASSET_TYPES.includes(assetType as AssetType)) throw invalid(MESSAGES.assetType, 'asset_type');
  if (!isHttpsUrl(url)) throw invalid(MESSAGES.urlNotHttps, 'url');
  const name = optionalString(fields, 'name', FIELD_LIMITS.assetName) ?? '';
  return { groupId, url, assetType: assetType as AssetType, name };
}

export function parseAssetUpdate(body: unknown): { name: string } {
  const fields = objectBody(body);
  const name = optionalString(fields, 'name', FIELD_LIMITS.assetName);
  if (name === undefined) throw invalid(MESSAGES.assetNameMissing, 'name');
  return { name };
}

/** `group_id` and `status` filters of the asset list; an unknown status is an error, not an empty list. */
export function parseAssetListFilter(query: Record<string, unknown>): AssetListFilter {
  const filter: AssetListFilter = {};
  const groupId = query['group_id'];
  if (typeof groupId === 'string' && groupId !== '') filter.groupId = groupId;
  const status = query['status'];
  if (typeof status === 'string' && status !== '') {
    if (!ASSET_STATUSES.includes(status as AssetStatus)) {
      throw invalid(`status must be one of ${ASSET_STATUSES.join(' / ')}`, 'status');
    }
    filter.status = status as AssetStatus;
  }
  return filter;
}

/** True for an absolute `https://` URL with a host, no credentials and no whitespace. */
export function isHttpsUrl(text: string): boolean {
  // The raw text must itself carry an authority: WHATWG parsing would turn `https:///x` into `https://x/`.
  if (/\s/.test(text) || !/^https:\/\/[^/?#]+/i.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid(MESSAGES.bodyNotObject);
  return body as Record<string, unknown>;
}

/** The string at `key`, undefined when absent or null; any other type, or more than `max` characters, is an error naming the field. */
function optionalString(fields: Record<string, unknown>, key: string, max = Number.POSITIVE_INFINITY): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${key} must be a string`, key);
  if (value.length > max) throw invalid(tooLongMessage(key, max), key);
  return value;
}

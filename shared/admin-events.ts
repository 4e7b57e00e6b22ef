// Admin WebSocket contract: the path, the subprotocols that carry the admin token, and every event the gateway pushes.
import type { ScanSummary } from './server-status.ts';
import type { JournalSummary } from './journal.ts';
import type { AdminAsset, Group } from './portrait.ts';

/** Path of the admin event socket. */
export const ADMIN_WS_PATH = '/admin/ws';
/** The subprotocol the server selects. */
export const ADMIN_WS_PROTOCOL = 'gatehouse.admin.v1';
/** Prefix of the second subprotocol, which carries the admin token (browsers cannot set headers on a WebSocket). */
export const ADMIN_WS_TOKEN_PREFIX = 'gatehouse.token.';

/** Sent once when the socket opens. */
export interface HelloEvent {
  type: 'hello';
  nextScanAt: number | null;
}

/** An asset's stored state changed (status, refresh error, name, …). */
export interface AssetChangedEvent {
  type: 'asset.changed';
  account: string;
  asset: AdminAsset;
}

/** An asset was registered, by any client (the portrait API or the console). */
export interface AssetCreatedEvent {
  type: 'asset.created';
  account: string;
  asset: AdminAsset;
}

/** A group was created or updated, by any client. */
export interface GroupChangedEvent {
  type: 'group.changed';
  account: string;
  group: Group;
}

/** An asset was deleted (or replaced by registering a failed one again). */
export interface AssetDeletedEvent {
  type: 'asset.deleted';
  account: string;
  assetId: string;
}

/** A group was deleted with its assets. */
export interface GroupDeletedEvent {
  type: 'group.deleted';
  account: string;
  groupId: string;
}

/** A background scan finished. */
export interface ScanFinishedEvent {
  type: 'scan.finished';
  report: ScanSummary;
  nextScanAt: number | null;
}

/** An API call was recorded in the request journal. */
export interface JournalAddedEvent {
  type: 'journal.added';
  entry: JournalSummary;
}

/** Every event of the admin socket. */
export type AdminEvent =
  | HelloEvent
  | AssetChangedEvent
  | AssetCreatedEvent
  | AssetDeletedEvent
  | GroupChangedEvent
  | GroupDeletedEvent
  | ScanFinishedEvent
  | JournalAddedEvent;

/** Every event type, for exhaustive handling. */
export const ADMIN_EVENT_TYPES = [
  'hello',
  'asset.changed',
  'asset.created',
  'group.changed',
  'asset.deleted',
  'group.deleted',
  'scan.finished',
  'journal.added',
] as const satisfies readonly AdminEvent['type'][];

/** Parses one socket message, or undefined when it is not a known event. */
export function parseAdminEvent(text: string): AdminEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const type = (value as { type?: unknown }).type;
  return (ADMIN_EVENT_TYPES as readonly unknown[]).includes(type) ? (value as AdminEvent) : undefined;
}

// Admin API contract of the console: every route's method, path, input and answer, shared by the gateway and the renderer.
import type { ChannelInput, ChannelSummary, ChannelTestResult, ChannelTestRow } from './channels.ts';
import type { AdminAsset, AssetStatus, AssetType, Group, Page } from './portrait.ts';
import type { JournalEntry, JournalPage, JournalQuery } from './journal.ts';
import type { ModelEntry } from './models.ts';
import type { PriceInput, PriceRow } from './prices.ts';
import type { ServerSettings, SettingsView } from './settings.ts';
import type { UsageStats } from './usage-stats.ts';
import type { AdminTask3d, Tasks3dQuery } from './tasks3d.ts';
import type { FixtureListing } from './fixtures.ts';
import type { ToolConfigApplyInput, ToolConfigPlan } from './tool-config.ts';
import type { CassetteFolder, CassetteQuery } from './cassette-admin.ts';
import type { AdminToken, ConsoleKey, CreatedToken, TokenCreateBody, TokenUpdateBody } from './admin-tokens.ts';
import type { ScanSummary, ServerStatus } from './server-status.ts';
import type { ClockState, ResetBody, ResetResult } from './testing-api.ts';
import { ADMIN_API_PREFIX } from './console-address.ts';

/** Body of a group creation (same fields as the portrait API). */
export interface GroupCreateBody {
  name: string;
  description?: string;
  group_type?: string;
}

/** Body of a group update: name and/or description. */
export interface GroupUpdateBody {
  name?: string;
  description?: string;
}

/** Body of an asset registration (same fields as the portrait API). */
export interface AssetCreateBody {
  group_id: string;
  url: string;
  asset_type: AssetType;
  name?: string;
}

/** Paging query of the lists (`p` from 1, `page_size` up to 100). */
export interface PageQuery {
  p?: number;
  page_size?: number;
}

/** Orders of the console's asset list: oldest first (the portrait API's order), newest first, by name A–Z or Z–A. */
export const ASSET_SORTS = ['created', 'newest', 'name', 'name_desc'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];

/** Filters and order of the asset list. */
export interface AssetQuery extends PageQuery {
  group_id?: string;
  status?: AssetStatus;
  /** Part of the name, any case (admin API only). */
  name?: string;
  /** Default `created` (admin API only). */
  sort?: AssetSort;
}

/** Body of registering a failed asset again. */
export interface AssetReregisterBody {
  /** The corrected URL (checked as on registration). */
  url: string;
}

/** What the account-scoped routes take in their path. */
export interface AccountParams {
  account: string;
}

/** One admin route: its path parameters, query, JSON body and answer. */
export interface AdminRoute<Params, Query, Body, Reply> {
  params: Params;
  query: Query;
  body: Body;
  reply: Reply;
}

type None = Record<string, never>;

/** Every admin route by name. A missing server handler or client call shape is a compile error. */
export interface AdminApi {
  getStatus: AdminRoute<None, None, undefined, ServerStatus>;
  listGroups: AdminRoute<AccountParams, PageQuery, undefined, Page<Group>>;
  createGroup: AdminRoute<AccountParams, None, GroupCreateBody, Group>;
  updateGroup: AdminRoute<AccountParams & { groupId: string }, None, GroupUpdateBody, Group>;
  listAssets: AdminRoute<AccountParams, AssetQuery, undefined, Page<AdminAsset>>;
  createAsset: AdminRoute<AccountParams, None, AssetCreateBody, AdminAsset>;
  /** Deletes a group and its assets from this gateway. */
  deleteGroup: AdminRoute<AccountParams & { groupId: string }, None, undefined, { group: Group; assets_deleted: number }>;
  /** Deletes an asset from this gateway; answers it as it was. */
  deleteAsset: AdminRoute<AccountParams & { assetId: string }, None, undefined, AdminAsset>;
  /** Registers a Failed asset again with a corrected URL: answers the new asset (the failed one is deleted). */
  reregisterAsset: AdminRoute<AccountParams & { assetId: string }, None, AssetReregisterBody, AdminAsset>;
  /** Asks the reviewer now about one asset (a terminal asset is returned as stored). */
  refreshAsset: AdminRoute<AccountParams & { assetId: string }, None, undefined, AdminAsset>;
  /** Runs a background scan now, or joins the one under way. */
  runScan: AdminRoute<None, None, undefined, ScanSummary>;
  listTokens: AdminRoute<None, { account?: string }, undefined, AdminToken[]>;
  createToken: AdminRoute<None, None, TokenCreateBody, CreatedToken>;
  revokeToken: AdminRoute<{ tokenId: string }, None, undefined, AdminToken>;
  /** Changes a token's expiry, quota or model limit. */
  updateToken: AdminRoute<{ tokenId: string }, None, TokenUpdateBody, AdminToken>;
  /** Deletes a revoked token (an active one must be revoked first); answers the token as it was. */
  deleteToken: AdminRoute<{ tokenId: string }, None, undefined, AdminToken>;
  /** The kept secret of a token; 404 when the store kept none. */
  revealToken: AdminRoute<{ tokenId: string }, None, undefined, { secret: string }>;
  /** The console's key of an account: a kept token revealed, else the one `console` token of this run (made once). */
  obtainConsoleKey: AdminRoute<AccountParams, None, undefined, ConsoleKey>;
  /** Saved, effective and pinned server settings. */
  getSettings: AdminRoute<None, None, undefined, SettingsView>;
  /** Replaces the saved settings (absent keys: defaults); CORS origins and the refresh interval apply at once. */
  saveSettings: AdminRoute<None, None, Partial<ServerSettings>, SettingsView>;
  /** The request journal, newest first. */
  listJournal: AdminRoute<None, JournalQuery, undefined, JournalPage>;
  getJournalEntry: AdminRoute<{ entryId: string }, None, undefined, JournalEntry>;
  /** Empties the journal; answers how many entries were removed. */
  clearJournal: AdminRoute<None, None, undefined, { removed: number }>;
  /** 3D tasks of every account or one (`account`), newest first; result file URLs are paths on the gateway. */
  listTasks3d: AdminRoute<None, Tasks3dQuery, undefined, Page<AdminTask3d>>;
  /** One 3D task of any account by its id. */
  getTask3d: AdminRoute<{ taskId: string }, None, undefined, AdminTask3d>;
  /** The relay channels with their health, highest priority first; keys only as hints. */
  listChannels: AdminRoute<None, None, undefined, ChannelSummary[]>;
  /** Adds a channel; its `key` goes to the secret store and is never sent back. */
  createChannel: AdminRoute<None, None, ChannelInput, ChannelSummary>;
  /** Changes the given fields (`key`: a string replaces it, null removes it, absent keeps it). */
  updateChannel: AdminRoute<{ channelId: string }, None, ChannelInput, ChannelSummary>;
  /** Removes a channel and its key; answers the channel as it was. */
  removeChannel: AdminRoute<{ channelId: string }, None, undefined, ChannelSummary>;
  /** One minimal real chat through the channel (`model`, else its first model), timed, recorded in its health; a service channel lists one group. */
  testChannel: AdminRoute<{ channelId: string }, None, { model?: string }, ChannelTestResult>;
  /** Tests every channel (a few at a time), highest priority first; each outcome recorded in its health. */
  testAllChannels: AdminRoute<None, None, undefined, ChannelTestRow[]>;
  /** Reads the upstream's model list; with `save: true` it becomes the channel's models (its renames kept). */
  fetchChannelModels: AdminRoute<{ channelId: string }, None, { save?: boolean }, { models: string[]; channel: ChannelSummary }>;
  /** The price table: `default` first, then every model with a documented or owner's price. */
  listPrices: AdminRoute<None, None, undefined, PriceRow[]>;
  /** One model's row; a model with no price of its own answers the `default` price it is charged at. */
  getPrice: AdminRoute<{ model: string }, None, undefined, PriceRow>;
  /** Sets the owner's price of a model; the next call is charged at it. */
  setPrice: AdminRoute<{ model: string }, None, PriceInput, PriceRow>;
  /** Drops the owner's price of a model (back to its documented price, or to `default`); answers the row as charged now. */
  resetPrice: AdminRoute<{ model: string }, None, undefined, PriceRow>;
  /** The usage dashboard of the last `days` UTC days (1–90, default 7), from the per-day totals the gateway keeps. */
  getUsageStats: AdminRoute<None, { days?: number }, undefined, UsageStats>;
  /** Keeps a new console secret (the current console address stops working at once) and answers the new address. */
  rotateConsoleSecret: AdminRoute<None, None, undefined, { consoleUrl: string }>;
  /** Asks the host to restart the server with the saved settings (answered first; the server is back within seconds). */
  restartServer: AdminRoute<None, None, undefined, { restarting: true }>;
  /** Every model the gateway lists, with capability, price and where it is served. */
  listModels: AdminRoute<None, None, undefined, ModelEntry[]>;
  /** What connecting a tool (`claude-code`, `codex`, `gemini-cli`) would change in its config files, as a diff; writes nothing. */
  planToolConfig: AdminRoute<{ tool: string }, { model?: string; trustFolder?: string }, undefined, ToolConfigPlan>;
  /** Writes the tool's config (a backup of the files kept first), with the tool's own API token; answers the change made. */
  applyToolConfig: AdminRoute<{ tool: string }, None, ToolConfigApplyInput | undefined, ToolConfigPlan>;
  /** Restores the tool's files exactly as they were before the first apply; 404 when no backup is kept. */
  undoToolConfig: AdminRoute<{ tool: string }, None, undefined, { restored: string[] }>;
  /** Adds the upstream the tool's config pointed to as a relay channel (`name`, default `<tool>-import`); 404 when there is none. */
  importToolConfig: AdminRoute<{ tool: string }, None, { name?: string } | undefined, ChannelSummary>;
  /** The fixtures in matching order (runtime ones first), with how often each matched; `test_id`: those that test sees. */
  listFixtures: AdminRoute<None, { test_id?: string }, undefined, { fixtures: FixtureListing[] }>;
  /** Adds runtime fixtures: one, a list, or `{fixtures: [...], test_id?}` (native or aimock); 400 naming each problem. */
  addFixtures: AdminRoute<None, None, unknown, { added: FixtureListing[] }>;
  /** Removes the runtime fixtures (all, or those of `test_id`); file fixtures stay. */
  removeFixtures: AdminRoute<None, { test_id?: string }, undefined, { removed: number }>;
  /** Replaces one runtime fixture in place by the body (one fixture as written, its `test_id` included); 400 naming each problem, 404 for a file fixture or an unknown id. */
  updateFixture: AdminRoute<{ fixtureId: string }, None, unknown, FixtureListing>;
  /** Removes one runtime fixture; 404 for a file fixture or an unknown id. */
  removeFixture: AdminRoute<{ fixtureId: string }, None, undefined, { removed: 1 }>;
  /** Starts the times and sequence counters over (all, or those of `test_id`). */
  resetFixtureCounters: AdminRoute<None, None, { test_id?: string } | undefined, { reset: true }>;
  /** The record/replay folder's cassettes, newest recording first, each with whether the current (or last) replay run used it. */
  listCassettes: AdminRoute<None, CassetteQuery, undefined, CassetteFolder>;
  /** The testing API: clears the journal, runtime fixtures, sequence and fault counters (all, or one test id's), and with `data` the stored data. */
  reset: AdminRoute<None, None, ResetBody | undefined, { reset: ResetResult }>;
  /** The gateway's clock: its offset from real time and what it reads now. */
  getClock: AdminRoute<None, None, undefined, ClockState>;
  /** Moves the gateway's clock forward by `ms` (1 ms to 10 years in all); everything that reads it sees the new time at once. */
  advanceClock: AdminRoute<None, None, { ms: number }, ClockState>;
}

/** Name of an admin route. */
export type AdminRouteName = keyof AdminApi;

/** HTTP methods the admin API uses. */
export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Method and path (with `:param` placeholders) of every admin route. */
export const ADMIN_ROUTES: { readonly [K in AdminRouteName]: { method: AdminMethod; path: string } } = {
  getStatus: { method: 'GET', path: `${ADMIN_API_PREFIX}/status` },
  listGroups: { method: 'GET', path: `${ADMIN_API_PREFIX}/accounts/:account/groups` },
  createGroup: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/groups` },
  updateGroup: { method: 'PUT', path: `${ADMIN_API_PREFIX}/accounts/:account/groups/:groupId` },
  listAssets: { method: 'GET', path: `${ADMIN_API_PREFIX}/accounts/:account/assets` },
  createAsset: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/assets` },
  refreshAsset: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/assets/:assetId/refresh` },
  deleteGroup: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/groups/:groupId/delete` },
  deleteAsset: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/assets/:assetId/delete` },
  reregisterAsset: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/assets/:assetId/reregister` },
  runScan: { method: 'POST', path: `${ADMIN_API_PREFIX}/scan` },
  listTokens: { method: 'GET', path: `${ADMIN_API_PREFIX}/tokens` },
  createToken: { method: 'POST', path: `${ADMIN_API_PREFIX}/tokens` },
  revokeToken: { method: 'POST', path: `${ADMIN_API_PREFIX}/tokens/:tokenId/revoke` },
  revealToken: { method: 'POST', path: `${ADMIN_API_PREFIX}/tokens/:tokenId/reveal` },
  obtainConsoleKey: { method: 'POST', path: `${ADMIN_API_PREFIX}/accounts/:account/console-key` },
  updateToken: { method: 'PUT', path: `${ADMIN_API_PREFIX}/tokens/:tokenId` },
  deleteToken: { method: 'POST', path: `${ADMIN_API_PREFIX}/tokens/:tokenId/delete` },
  getSettings: { method: 'GET', path: `${ADMIN_API_PREFIX}/settings` },
  saveSettings: { method: 'PUT', path: `${ADMIN_API_PREFIX}/settings` },
  listJournal: { method: 'GET', path: `${ADMIN_API_PREFIX}/journal` },
  getJournalEntry: { method: 'GET', path: `${ADMIN_API_PREFIX}/journal/:entryId` },
  clearJournal: { method: 'POST', path: `${ADMIN_API_PREFIX}/journal/clear` },
  listTasks3d: { method: 'GET', path: `${ADMIN_API_PREFIX}/tasks3d` },
  getTask3d: { method: 'GET', path: `${ADMIN_API_PREFIX}/tasks3d/:taskId` },
  listChannels: { method: 'GET', path: `${ADMIN_API_PREFIX}/channels` },
  createChannel: { method: 'POST', path: `${ADMIN_API_PREFIX}/channels` },
  updateChannel: { method: 'PUT', path: `${ADMIN_API_PREFIX}/channels/:channelId` },
  removeChannel: { method: 'POST', path: `${ADMIN_API_PREFIX}/channels/:channelId/remove` },
  testChannel: { method: 'POST', path: `${ADMIN_API_PREFIX}/channels/:channelId/test` },
  testAllChannels: { method: 'POST', path: `${ADMIN_API_PREFIX}/channels/test-all` },
  fetchChannelModels: { method: 'POST', path: `${ADMIN_API_PREFIX}/channels/:channelId/models` },
  listPrices: { method: 'GET', path: `${ADMIN_API_PREFIX}/prices` },
  getPrice: { method: 'GET', path: `${ADMIN_API_PREFIX}/prices/:model` },
  setPrice: { method: 'PUT', path: `${ADMIN_API_PREFIX}/prices/:model` },
  resetPrice: { method: 'DELETE', path: `${ADMIN_API_PREFIX}/prices/:model` },
  getUsageStats: { method: 'GET', path: `${ADMIN_API_PREFIX}/usage` },
  listModels: { method: 'GET', path: `${ADMIN_API_PREFIX}/models` },
  planToolConfig: { method: 'GET', path: `${ADMIN_API_PREFIX}/connect/:tool` },
  applyToolConfig: { method: 'POST', path: `${ADMIN_API_PREFIX}/connect/:tool/apply` },
  undoToolConfig: { method: 'POST', path: `${ADMIN_API_PREFIX}/connect/:tool/undo` },
  importToolConfig: { method: 'POST', path: `${ADMIN_API_PREFIX}/connect/:tool/import` },
  rotateConsoleSecret: { method: 'POST', path: `${ADMIN_API_PREFIX}/console-secret/rotate` },
  restartServer: { method: 'POST', path: `${ADMIN_API_PREFIX}/restart` },
  listFixtures: { method: 'GET', path: `${ADMIN_API_PREFIX}/fixtures` },
  addFixtures: { method: 'POST', path: `${ADMIN_API_PREFIX}/fixtures` },
  removeFixtures: { method: 'DELETE', path: `${ADMIN_API_PREFIX}/fixtures` },
  updateFixture: { method: 'PUT', path: `${ADMIN_API_PREFIX}/fixtures/:fixtureId` },
  removeFixture: { method: 'DELETE', path: `${ADMIN_API_PREFIX}/fixtures/:fixtureId` },
  resetFixtureCounters: { method: 'POST', path: `${ADMIN_API_PREFIX}/fixtures/reset-counters` },
  listCassettes: { method: 'GET', path: `${ADMIN_API_PREFIX}/cassettes` },
  reset: { method: 'POST', path: `${ADMIN_API_PREFIX}/reset` },
  getClock: { method: 'GET', path: `${ADMIN_API_PREFIX}/clock` },
  advanceClock: { method: 'POST', path: `${ADMIN_API_PREFIX}/clock/advance` },
};

/** Fills a route's `:param` placeholders (URI-encoded). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The error body of every failed admin call (the OpenAI-style error shape). */
export interface AdminErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

// Builds every store of the console from its connection, and wires the admin socket's events into them.
import type { AdminEvent } from '../../../shared/admin-events.ts';
import type { GatehouseBridge } from '../../../shared/ipc.ts';
import { createAdminClient, type AdminCall } from '../api/admin-client.ts';
import { ApiError } from '../api/http.ts';
import { connectAdminSocket, type SocketFactory } from '../api/admin-socket.ts';
import { createTasks3dClient } from '../api/tasks3d.ts';
import { createApiKeyStore } from './api-key.ts';
import { createAssetsStore } from './assets.ts';
import { createChannelsStore } from './channels.ts';
import { createConnectionStore, type Connection } from './connection.ts';
import { createFixturesStore } from './fixtures.ts';
import { createCassettesStore } from './cassettes.ts';
import { createJournalStore } from './journal.ts';
import { createModelAliasesStore } from './model-aliases.ts';
import { createModelsStore } from './models.ts';
import { createNavigationStore, type PageName } from './navigation.ts';
import { createPlaygroundStore } from './playground.ts';
import { createPrefsStore } from './prefs.ts';
import { createSettingsStore } from './settings.ts';
import { createStatusStore } from './status.ts';
import type { KeyValueStorage } from './storage.ts';
import { createTasks3dStore } from './tasks3d.ts';
import { createTokensStore } from './tokens.ts';
import { createUsageStore } from './usage.ts';

/** What the stores need from their surroundings (the page, or a test). */
export interface ConsoleDeps {
  connection: Connection;
  bridge: GatehouseBridge | null;
  /** Per-tab storage (secrets of this session). */
  session: KeyValueStorage;
  /** Lasting storage (preferences). */
  local: KeyValueStorage;
  fetch?: typeof fetch;
  browserLanguage?: string;
  initialPage?: PageName;
}

export function createConsoleStores(deps: ConsoleDeps) {
  const fetchImpl = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const call: AdminCall = createAdminClient({ apiBase: deps.connection.apiBase, adminToken: deps.connection.adminToken, fetch: fetchImpl });
  const status = createStatusStore(call);
  const assets = createAssetsStore(call, status.getState().account);
  // The assets page follows the account chosen in the top bar.
  status.subscribe((state, previous) => {
    if (state.account !== previous.account) void assets.getState().setAccount(state.account);
  });
  return {
    call,
    connection: createConnectionStore(deps.connection, deps.bridge),
    navigation: createNavigationStore(deps.initialPage),
    prefs: createPrefsStore(deps.local, deps.browserLanguage),
    status,
    assets,
    tokens: createTokensStore(call),
    channels: createChannelsStore(call),
    fixtures: createFixturesStore(call),
    cassettes: createCassettesStore(call),
    journal: createJournalStore(call),
    settings: createSettingsStore(call),
    usage: createUsageStore(call),
    models: createModelsStore(call),
    modelAliases: createModelAliasesStore(call),
    apiKeys: createApiKeyStore(call, deps.session),
    playground: createPlaygroundStore({ apiBase: deps.connection.apiBase, fetch: fetchImpl }),
    tasks3d: createTasks3dStore(call, createTasks3dClient(deps.connection.apiBase, fetchImpl)),
  };
}

export type ConsoleStores = ReturnType<typeof createConsoleStores>;

/** Applies one admin event to the stores. */
export function applyAdminEvent(stores: ConsoleStores, event: AdminEvent): void {
  switch (event.type) {
    case 'hello':
      stores.status.getState().setNextScanAt(event.nextScanAt);
      return;
    case 'asset.changed':
      stores.assets.getState().applyChange(event.account, event.asset);
      return;
    case 'asset.created':
      stores.assets.getState().applyCreated(event.account, event.asset);
      return;
    case 'group.changed':
      stores.assets.getState().applyGroup(event.account, event.group);
      return;
    case 'asset.deleted':
      stores.assets.getState().applyDeleted(event.account, event.assetId);
      return;
    case 'group.deleted':
      stores.assets.getState().applyGroupDeleted(event.account, event.groupId);
      return;
    case 'scan.finished':
      stores.status.getState().setLastScan(event.report);
      stores.status.getState().setNextScanAt(event.nextScanAt);
      return;
    case 'journal.added': {
      stores.journal.getState().applyAdded(event.entry);
      // The Fixtures page's match counts follow the calls.
      if (stores.navigation.getState().page === 'fixtures' && stores.fixtures.getState().fixtures) stores.fixtures.getState().refreshSoon();
      // The Cassettes page's "This run" follows the replayed calls.
      if (event.entry.source === 'replay' && stores.navigation.getState().page === 'cassettes' && stores.cassettes.getState().folder)
        stores.cassettes.getState().refreshSoon();
      // A call of an account the console has not heard of (a token made elsewhere): refresh the account lists.
      const { status } = stores.status.getState();
      if (status && event.entry.account && !status.accounts.includes(event.entry.account)) void stores.status.getState().load();
      // A 3D task made by any client (curl, an SDK): the 3D page's list, once loaded, shows it.
      if (event.entry.protocol === 'tasks3d' && event.entry.method === 'POST' && stores.tasks3d.getState().page)
        void stores.tasks3d.getState().load();
      return;
    }
  }
}

/** Connects the admin socket to the stores; returns the function that disconnects it. */
export function startLiveUpdates(stores: ConsoleStores, open: SocketFactory): () => void {
  const { connection } = stores.connection.getState();
  if (!connection) return () => {};
  let wasOpen = false;
  return connectAdminSocket({
    baseUrl: connection.socketBase,
    adminToken: connection.adminToken,
    open,
    onEvent: (event) => applyAdminEvent(stores, event),
    // A gateway that answers 401 to the status call refuses this console's admin token: it is from an earlier run.
    isRefused: () =>
      stores.call('getStatus').then(
        () => false,
        (error: unknown) => error instanceof ApiError && error.status === 401,
      ),
    onState: (state) => {
      stores.connection.getState().setSocket(state);
      // After a reconnect, reload what may have changed while the socket was down.
      if (state === 'open' && wasOpen) {
        void stores.status.getState().load();
        void stores.assets.getState().loadAssets();
        if (stores.journal.getState().page) void stores.journal.getState().load();
        if (stores.tasks3d.getState().page) void stores.tasks3d.getState().load();
      }
      if (state === 'open') wasOpen = true;
    },
  });
}

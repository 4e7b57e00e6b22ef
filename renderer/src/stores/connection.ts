// How the console finds its gateway: from the desktop host's bridge, or from the `?admin_token=` handoff kept in sessionStorage.
import { create } from 'zustand';
import { ADMIN_TOKEN_PARAM } from '../../../shared/console-address.ts';
import type { DesktopConnection, GatehouseBridge } from '../../../shared/ipc.ts';
import type { SocketState } from '../api/admin-socket.ts';
import type { KeyValueStorage } from './storage.ts';

/** Where the console keeps the admin token for this browser tab. */
export const ADMIN_TOKEN_KEY = 'gatehouse.adminToken';

/** A resolved connection to the gateway. */
export interface Connection {
  host: 'browser' | 'electron';
  /** Origin API calls go to ('' for the page's own origin). */
  apiBase: string;
  /** Origin of the socket (the page origin when apiBase is ''). */
  socketBase: string;
  /** The gateway's base URL as users should copy it. */
  gatewayUrl: string;
  adminToken: string;
}

/** The outcome of reading the page address and storage. */
export type BrowserHandoff =
  | { kind: 'ready'; connection: Connection; /** The address without the token, to put in the history. */ cleanUrl: string }
  | { kind: 'missing-token' };

/**
 * Reads a browser console's connection: a token in the URL wins and moves to storage (the caller
 * replaces the address with `cleanUrl`); otherwise the token kept in storage for this tab.
 */
export function resolveBrowserConnection(href: string, storage: KeyValueStorage): BrowserHandoff {
  const url = new URL(href);
  const fromUrl = url.searchParams.get(ADMIN_TOKEN_PARAM);
  if (fromUrl) {
    storage.setItem(ADMIN_TOKEN_KEY, fromUrl);
    url.searchParams.delete(ADMIN_TOKEN_PARAM);
  }
  const adminToken = fromUrl ?? storage.getItem(ADMIN_TOKEN_KEY);
  if (!adminToken) return { kind: 'missing-token' };
  return {
    kind: 'ready',
    cleanUrl: url.toString(),
    connection: { host: 'browser', apiBase: '', socketBase: url.origin, gatewayUrl: url.origin, adminToken },
  };
}

/** A desktop window's connection, from the host's bridge; the page is served by the gateway (or the dev server that proxies to it). */
export function connectionFromDesktop(desktop: DesktopConnection, pageOrigin: string): Connection {
  return {
    host: 'electron',
    apiBase: '',
    socketBase: pageOrigin,
    gatewayUrl: desktop.gatewayUrl ?? pageOrigin,
    adminToken: desktop.adminToken,
  };
}

export interface ConnectionState {
  connection: Connection | null;
  socket: SocketState;
  /** Set by the desktop host while the server is paused or could not start. */
  paused: boolean;
  problem: string | null;
  bridge: GatehouseBridge | null;
  setSocket(state: SocketState): void;
  setDesktop(desktop: DesktopConnection): void;
}

export function createConnectionStore(connection: Connection | null, bridge: GatehouseBridge | null = null) {
  return create<ConnectionState>((set) => ({
    connection,
    socket: 'connecting',
    paused: false,
    problem: null,
    bridge,
    setSocket: (socket) => set({ socket }),
    setDesktop: (desktop) => set({ paused: desktop.paused, problem: desktop.problem }),
  }));
}

export type ConnectionStore = ReturnType<typeof createConnectionStore>;

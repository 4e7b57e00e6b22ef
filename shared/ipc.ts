// IPC contract between the desktop host and its window: channel names, payloads and the preload bridge's shape.

/** What the desktop host tells the console about its gateway. */
export interface DesktopConnection {
  /** Base URL of the gateway (also the origin the console is served from), or null while paused. */
  gatewayUrl: string | null;
  /** The per-launch admin token. */
  adminToken: string;
  /** True while the user paused the server from the tray or the console. */
  paused: boolean;
  /** A sentence for the user when the server could not start, else null. */
  problem: string | null;
}

/** Request/answer channels (renderer invokes, main answers). */
export interface IpcInvokeContract {
  'gatehouse:get-connection': { args: []; result: DesktopConnection };
  'gatehouse:set-paused': { args: [paused: boolean]; result: DesktopConnection };
  /** Restarts the server with the saved settings (port, host, TLS, data folder); the window follows it to its new address. */
  'gatehouse:restart-server': { args: []; result: DesktopConnection };
  /** Opens an http(s) URL in the user's browser; false when the URL was refused. */
  'gatehouse:open-external': { args: [url: string]; result: boolean };
  'gatehouse:copy-text': { args: [text: string]; result: void };
}

/** Channels the main process pushes to the window. */
export interface IpcEventContract {
  'gatehouse:connection-changed': DesktopConnection;
}

export type IpcInvokeChannel = keyof IpcInvokeContract;
export type IpcEventChannel = keyof IpcEventContract;

/** Every invoke channel; main registers a handler for each and the preload exposes each. */
export const IPC_INVOKE_CHANNELS = [
  'gatehouse:get-connection',
  'gatehouse:set-paused',
  'gatehouse:restart-server',
  'gatehouse:open-external',
  'gatehouse:copy-text',
] as const satisfies readonly IpcInvokeChannel[];

export const IPC_EVENT_CHANNELS = ['gatehouse:connection-changed'] as const satisfies readonly IpcEventChannel[];

/** Longest text the copy channel accepts. */
export const COPY_TEXT_MAX = 100_000;

/** The bridge the preload script exposes as `window.gatehouse` in the desktop app. */
export interface GatehouseBridge {
  readonly host: 'electron';
  getConnection(): Promise<DesktopConnection>;
  setPaused(paused: boolean): Promise<DesktopConnection>;
  restartServer(): Promise<DesktopConnection>;
  openExternal(url: string): Promise<boolean>;
  copyText(text: string): Promise<void>;
  /** Calls `listener` on every connection change; returns the unsubscribe function. */
  onConnectionChanged(listener: (connection: DesktopConnection) => void): () => void;
}

/** Name of the bridge on `window`. */
export const BRIDGE_NAME = 'gatehouse';

/**
 * True for a URL the desktop host may open in the user's browser: https anywhere, or http to a
 * loopback host. Everything else (file:, javascript:, custom schemes, credentials in the URL) is refused.
 */
export function isOpenableExternalUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return false;
}

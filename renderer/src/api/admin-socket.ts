// The admin event socket client: connects with the token subprotocol, hands events over, reconnects with backoff.
import { ADMIN_WS_PATH, ADMIN_WS_PROTOCOL, ADMIN_WS_TOKEN_PREFIX, parseAdminEvent, type AdminEvent } from '../../../shared/admin-events.ts';

/** The parts of a WebSocket this client uses (the browser's, or a test double). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

/** Live, connecting (first attempt or a retry), stopped, or refused for good (the admin token is not this run's). */
export type SocketState = 'connecting' | 'open' | 'retrying' | 'closed' | 'refused';

export interface AdminSocketOptions {
  /** Origin of the gateway as http(s)://host:port ('' for the page's origin, given as `pageOrigin`). */
  baseUrl: string;
  adminToken: string;
  onEvent(event: AdminEvent): void;
  onState(state: SocketState): void;
  open: SocketFactory;
  /** Delay before retry n (1, 2, …); defaults to 0.5 s doubling up to 10 s. */
  retryDelayMs?: (attempt: number) => number;
  schedule?: (run: () => void, ms: number) => unknown;
  cancel?: (handle: unknown) => void;
  /**
   * Asked after a connection closed without ever opening: true when the gateway answers but refuses the admin token
   * (a console address from an earlier run), which no retry can fix: the client then stops in state `refused`.
   */
  isRefused?: () => Promise<boolean>;
}

/** A SocketLike over the platform's WebSocket. */
export const platformSocket: SocketFactory = (url, protocols) => {
  const socket = new WebSocket(url, protocols);
  const like: SocketLike = { onopen: null, onclose: null, onmessage: null, close: () => socket.close() };
  socket.onopen = (event) => like.onopen?.(event);
  socket.onclose = (event) => like.onclose?.(event);
  socket.onmessage = (event) => like.onmessage?.(event);
  return like;
};

/** The ws:// or wss:// URL of the admin socket for an http(s) base URL. */
export function adminSocketUrl(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}${ADMIN_WS_PATH}`;
}

/** Starts the connection; the returned function stops it for good. */
export function connectAdminSocket(options: AdminSocketOptions): () => void {
  const delay = options.retryDelayMs ?? ((attempt) => Math.min(10_000, 500 * 2 ** (attempt - 1)));
  const schedule = options.schedule ?? ((run, ms) => setTimeout(run, ms));
  const cancel = options.cancel ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let socket: SocketLike | undefined;
  let timer: unknown;
  let attempt = 0;
  let stopped = false;

  const connect = () => {
    options.onState(attempt === 0 ? 'connecting' : 'retrying');
    const current = options.open(adminSocketUrl(options.baseUrl), [ADMIN_WS_PROTOCOL, `${ADMIN_WS_TOKEN_PREFIX}${options.adminToken}`]);
    socket = current;
    let opened = false;
    current.onopen = () => {
      opened = true;
      attempt = 0;
      options.onState('open');
    };
    current.onmessage = (message) => {
      const event = typeof message.data === 'string' ? parseAdminEvent(message.data) : undefined;
      if (event) options.onEvent(event);
    };
    current.onclose = () => {
      if (stopped || socket !== current) return;
      const retry = () => {
        if (stopped || socket !== current) return;
        attempt += 1;
        options.onState('retrying');
        timer = schedule(connect, delay(attempt));
      };
      if (opened || !options.isRefused) return retry();
      void options.isRefused().then(
        (refused) => {
          if (!refused) return retry();
          if (stopped || socket !== current) return;
          stopped = true;
          options.onState('refused');
        },
        () => retry(),
      );
    };
  };
  connect();

  return () => {
    stopped = true;
    if (timer !== undefined) cancel(timer);
    socket?.close();
    options.onState('closed');
  };
}

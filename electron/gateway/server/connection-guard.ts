// Connection limits of both listeners: header, body and keep-alive timeouts, a cap on not-yet-authenticated connections per peer, and a bounded graceful drain.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';

/** The connection limits; the gateway uses CONNECTION_LIMITS unless a host or test passes others. */
export interface ConnectionLimits {
  /** Time to receive a request's headers; then the connection is answered 408 and closed. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (only the request: a long streamed answer is not cut). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /**
   * Open connections per peer address that have not yet presented a valid API or admin token. A new one beyond it
   * closes the oldest such connection of that peer, so a flood of idle or trickling sockets cannot starve real callers.
   */
  maxUnauthenticatedPerPeer: number;
  /**
   * How long a new connection may stay unauthenticated before it can be evicted: a burst of SDK calls opens many
   * connections at once, each authenticated by its first request a moment later, and none of them is cut.
   */
  unauthenticatedGraceMs: number;
  /** On stop: how long requests in flight may take to finish before every remaining connection is closed. */
  shutdownGraceMs: number;
}

/** The defaults, for both the HTTP and the TLS listener. */
export const CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxUnauthenticatedPerPeer: 64,
  unauthenticatedGraceMs: 2_000,
  shutdownGraceMs: 10_000,
});

/** Node's own check of header and request timeouts runs this often (its default, 30 s, would let timeouts overrun by that much). */
export function checkingIntervalOf(limits: ConnectionLimits): number {
  return Math.min(1_000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4)));
}

/** Node's http options that carry the limits (given when a server is made). */
export function serverOptionsOf(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: checkingIntervalOf(limits),
  };
}

/** Throws unless the limits are positive and the headers timeout fits in the request timeout (Node requires it). */
export function checkConnectionLimits(limits: ConnectionLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0)
      throw new RangeError(`connection limit ${name} must be a positive whole number, got ${value}`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new RangeError('headersTimeoutMs must not exceed requestTimeoutMs');
}

const AUTHENTICATED = Symbol('gatehouse.authenticated');
const UPGRADED = Symbol('gatehouse.upgraded');
const IN_FLIGHT = Symbol('gatehouse.inFlight');
const ADMITTED_AT = Symbol('gatehouse.admittedAt');

interface TrackedSocket extends Socket {
  [AUTHENTICATED]?: boolean;
  [UPGRADED]?: boolean;
  [IN_FLIGHT]?: number;
  [ADMITTED_AT]?: number;
}

/** The `close` listener of every response: its request is no longer in flight on its socket. */
function requestEnded(this: ServerResponse): void {
  const socket = this.req.socket as TrackedSocket;
  socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1;
}

/** Records that a request on `socket` presented a valid token: the connection no longer counts as unauthenticated. */
export function markAuthenticated(socket: Socket): void {
  (socket as TrackedSocket)[AUTHENTICATED] = true;
}

/** Records that `socket` carries a WebSocket now: on stop it is closed by its WebSocket server, or at the end of the grace time. */
export function markUpgraded(socket: Socket): void {
  (socket as TrackedSocket)[UPGRADED] = true;
}

/** Watches the connections of one or more servers (the HTTP and the TLS listener share one guard, so one peer count). */
export class ConnectionGuard {
  readonly limits: ConnectionLimits;
  private readonly sockets = new Set<TrackedSocket>();
  /** Per peer address: its connections not yet authenticated, oldest first. */
  private readonly pending = new Map<string, Set<TrackedSocket>>();
  private graceTimer: NodeJS.Timeout | undefined;
  /** Set while some peer is over its cap with connections still inside their grace time: enforces the cap again then. */
  private recheck: NodeJS.Timeout | undefined;

  constructor(limits: ConnectionLimits) {
    checkConnectionLimits(limits);
    this.limits = limits;
  }

  /**
   * Follows the connections of `server`: `connection` for plain HTTP, `secureConnection` for TLS (a handshake is bounded
   * by the TLS server's own handshake timeout). The timeouts themselves are given when each server is made
   * (serverOptionsOf; Fastify's own requestTimeout and keepAliveTimeout options for the HTTP listener).
   */
  watch(server: HttpServer | HttpsServer, event: 'connection' | 'secureConnection'): void {
    server.on(event, (socket: Socket) => this.admit(socket as TrackedSocket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket as TrackedSocket;
      socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
      // `on` with one shared listener: a response closes once, and `once` or a closure would cost a wrapper per request.
      response.on('close', requestEnded);
    });
  }

  /** Open connections now, and of them the ones not yet authenticated (for tests and the status page). */
  counts(): { open: number; unauthenticated: number } {
    let unauthenticated = 0;
    for (const peer of this.pending.values()) for (const socket of peer) if (!socket[AUTHENTICATED]) unauthenticated++;
    return { open: this.sockets.size, unauthenticated };
  }

  /**
   * Call once the servers stop accepting: closes at once every connection with no request in flight (idle, still
   * sending headers, or already answered such as a refused call still trickling its body), gives the rest
   * `shutdownGraceMs`, then closes whatever is left.
   */
  drain(): void {
    for (const socket of this.sockets) {
      if (!socket[UPGRADED] && (socket[IN_FLIGHT] ?? 0) === 0) socket.destroy();
    }
    this.graceTimer = setTimeout(() => this.closeAll(), this.limits.shutdownGraceMs);
    this.graceTimer.unref();
  }

  /** Closes every connection now (the end of the grace time, or a stop that must not wait). */
  closeAll(): void {
    clearTimeout(this.graceTimer);
    clearTimeout(this.recheck);
    for (const socket of this.sockets) socket.destroy();
  }

  private admit(socket: TrackedSocket): void {
    this.sockets.add(socket);
    const peer = socket.remoteAddress ?? 'unknown';
    let waiting = this.pending.get(peer);
    if (!waiting) {
      waiting = new Set();
      this.pending.set(peer, waiting);
    }
    socket[ADMITTED_AT] = performance.now();
    waiting.add(socket);
    this.enforce(waiting);
    socket.once('close', () => {
      this.sockets.delete(socket);
      const set = this.pending.get(peer);
      set?.delete(socket);
      if (set?.size === 0) this.pending.delete(peer);
    });
  }

  /**
   * Closes a peer's oldest unauthenticated connections while it holds more than the cap, but only those past their
   * grace time; when younger ones still make it too many, the cap is enforced again once they are old enough.
   */
  private enforce(waiting: Set<TrackedSocket>): void {
    for (const other of waiting) if (other[AUTHENTICATED]) waiting.delete(other);
    let excess = waiting.size - this.limits.maxUnauthenticatedPerPeer;
    const graceStart = performance.now() - this.limits.unauthenticatedGraceMs;
    for (const oldest of waiting) {
      if (excess <= 0 || (oldest[ADMITTED_AT] ?? 0) > graceStart) break; // Oldest first: the rest are younger still.
      waiting.delete(oldest);
      oldest.destroy();
      excess--;
    }
    if (excess > 0 && !this.recheck) {
      this.recheck = setTimeout(() => {
        this.recheck = undefined;
        for (const peer of this.pending.values()) this.enforce(peer);
      }, this.limits.unauthenticatedGraceMs);
      this.recheck.unref();
    }
  }
}

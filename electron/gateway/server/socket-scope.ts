// The WebSocket routes' own scope: @fastify/websocket serves only them, so no other route pays its hooks, and an upgrade anywhere else is answered as the plugin answered it.
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { REQUEST_ID_HEADER } from '../../../shared/test-ids.ts';

/** The socket server's settings. */
export interface SocketSettings {
  /** Picks the WebSocket subprotocol of an upgrade from those the client offered (false: none). */
  chooseSubprotocol: (protocols: Set<string>) => string | false;
  /** Largest WebSocket message a client may send, in bytes; over it the socket closes with 1009. */
  maxSocketMessageBytes: number;
}

/**
 * True for a request that came as an upgrade: Node sets `upgrade` on each request it hands to the server's `upgrade`
 * listeners (the plugin's, which routes it through the app like any request), and on no other.
 */
export function isUpgrade(request: FastifyRequest): boolean {
  return (request.raw as IncomingMessage & { upgrade?: boolean }).upgrade === true;
}

/** An upgrade's socket once its answer (a refusal over HTTP) is finished: closed, as the plugin's `onResponse` hook did. */
function closeUpgradedSocket(this: ServerResponse): void {
  this.req.socket.destroy();
}

/**
 * A socket whose handler failed or whose client broke it: terminated unless it is already closing, so a socket over
 * the message limit finishes its 1009 close handshake (the plugin's own handler would cut it).
 */
function onSocketError(this: WebSocket): void {
  if (this.readyState === this.OPEN) this.terminate();
}

const NO_HEAD = Buffer.alloc(0);

/**
 * One WebSocket server for every socket route (admin events, realtime), on the HTTP and TLS listeners alike. The
 * plugin is registered in a scope holding only those routes: its `onRequest` and `onResponse` hooks and its wrapper
 * around each route's handler run for them alone. The app's own steps tell an upgrade by `isUpgrade`, and this class
 * keeps what the plugin did for every other route: an HTTP answer to an upgrade closes its socket (`arrived`), and an
 * upgrade that reaches a route with no socket completes its handshake and is closed at once (`refuseElsewhere`).
 */
export class SocketScope {
  private server: WebSocketServer | undefined;
  /** The request id of each upgrade in progress, for the `x-request-id` of its 101. */
  private readonly ids = new WeakMap<IncomingMessage, string>();
  /** The bytes a client sent after its upgrade request (rare: a client waits for the 101), handed on with the handshake. */
  private readonly heads = new WeakMap<IncomingMessage, Buffer>();
  private readonly keepHead = (raw: IncomingMessage, _socket: Duplex, head: Buffer) => {
    if (head.length > 0) this.heads.set(raw, head);
  };

  /** Registers the plugin and, through `routes`, the socket routes in a scope of their own (after the app's hooks). */
  async register(app: FastifyInstance, settings: SocketSettings, routes: (scope: FastifyInstance) => Promise<void>): Promise<void> {
    await app.register(async (scope) => {
      // A client message over maxSocketMessageBytes (the realtime limit on one event) closes its socket with 1009.
      await scope.register(websocket, {
        options: { handleProtocols: settings.chooseSubprotocol, maxPayload: settings.maxSocketMessageBytes },
        errorHandler: (_error, socket) => onSocketError.call(socket),
      });
      const server = scope.websocketServer;
      // A WebSocket upgrade is answered by the socket server itself: its 101 gets the request id there.
      server.on('headers', (headers: string[], raw: IncomingMessage) => {
        const id = this.ids.get(raw);
        if (id !== undefined) headers.push(`${REQUEST_ID_HEADER}: ${id}`);
      });
      this.server = server;
      await routes(scope);
    });
    // Before the plugin's listener (which routes the upgrade at once); removed with it, so a closing app refuses upgrades.
    app.server.prependListener('upgrade', this.keepHead);
    app.addHook('preClose', (done) => {
      app.server.removeListener('upgrade', this.keepHead);
      done();
    });
  }

  /** The `onRequest` step of an upgrade, run first: its 101 carries its request id, and an HTTP answer to it closes its socket. */
  arrived(request: FastifyRequest, reply: FastifyReply): void {
    this.ids.set(request.raw, request.id);
    reply.raw.on('finish', closeUpgradedSocket);
    reply.raw.on('error', closeUpgradedSocket);
  }

  /**
   * Where a route's handler would run (the app's last `preHandler` step): an upgrade to a route that serves no socket
   * completes its handshake and is closed at once, as the plugin's wrapper does. The socket routes' own upgrades
   * (`request.ws`, set by the plugin in their scope) and replies already sent are left alone.
   */
  refuseElsewhere(request: FastifyRequest, reply: FastifyReply): void {
    if (request.ws === true || reply.sent || !this.server) return;
    const server = this.server;
    const raw = request.raw;
    reply.hijack();
    server.handleUpgrade(raw, raw.socket, this.heads.get(raw) ?? NO_HEAD, (socket) => {
      server.emit('connection', socket, raw);
      socket.on('error', onSocketError);
      socket.close();
    });
  }
}

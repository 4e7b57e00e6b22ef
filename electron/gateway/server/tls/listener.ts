// The second, TLS listener: serves the same app (HTTP routes and WebSocket upgrades) over https:// and wss://.
import type { FastifyInstance } from 'fastify';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serverOptionsOf, type ConnectionGuard } from '../connection-guard.ts';
import type { LocalCertificates } from './certificates.ts';

/** A running TLS listener. */
export interface TlsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: a free one) with the local certificate and hands every request and upgrade to `app`, under the
 * same connection limits as the HTTP listener (`guard`); a TLS handshake gets the headers timeout.
 */
export async function listenTls(
  app: FastifyInstance,
  certificates: LocalCertificates,
  host: string,
  port: number,
  guard: ConnectionGuard,
): Promise<TlsListener> {
  const options = { cert: certificates.cert, key: certificates.key, handshakeTimeout: guard.limits.headersTimeoutMs, ...serverOptionsOf(guard.limits) };
  const server: Server = createServer(options, (request, response) => {
    app.routing(request, response);
  });
  guard.watch(server, 'secureConnection');
  // WebSocket upgrades go to the app's WebSocket routes; once the app is closing nobody listens there, so drop them.
  server.on('upgrade', (request, socket, head) => {
    if (app.server.listenerCount('upgrade') === 0) socket.destroy();
    else app.server.emit('upgrade', request, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `https://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

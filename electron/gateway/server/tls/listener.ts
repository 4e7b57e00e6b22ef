// The second, TLS listener: serves the same app (HTTP routes and WebSocket upgrades) over https:// and wss://.
import type { FastifyInstance } from 'fastify';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CONNECTION_LIMITS, ConnectionGuard, serverOptionsOf } from '../connection-guard.ts';
import type { LocalCertificates } from './certificates.ts';

/** A running TLS listener. */
export interface TlsListener {
  url: string;
  close(): Promise<void>;
}

/** How often a running listener asks for a renewed certificate (it changes only near expiry). */
export const CERTIFICATE_CHECK_MS = 12 * 3600 * 1000;

/** How a running listener keeps its certificate fresh. */
export interface CertificateRenewal {
  /** The current certificate and key (renewed when near expiry); undefined or a throw keeps the one in use. */
  renew: () => { cert: string; key: string } | undefined;
  /** How often to ask; CERTIFICATE_CHECK_MS by default. */
  everyMs?: number;
}

/**
 * Listens on `port` (0: a free one) with the local certificate and hands every request and upgrade to `app`.
 * With `renewal`, a renewed certificate serves the next handshakes without a restart. The connection limits are the
 * HTTP listener's (`guard`, shared so a peer is counted once); a TLS handshake gets the headers timeout.
 */
export async function listenTls(
  app: FastifyInstance,
  certificates: LocalCertificates,
  host: string,
  port: number,
  renewal?: CertificateRenewal,
  guard: ConnectionGuard = new ConnectionGuard(CONNECTION_LIMITS),
  onError: (error: unknown) => void = () => {},
): Promise<TlsListener> {
  const options = {
    cert: certificates.cert,
    key: certificates.key,
    handshakeTimeout: guard.limits.headersTimeoutMs,
    ...serverOptionsOf(guard.limits),
  };
  const server: Server = createServer(options, (request, response) => {
    app.routing(request, response);
  });
  guard.watch(server, 'secureConnection');
  let current = certificates.cert;
  const timer = setInterval(() => {
    try {
      const next = renewal?.renew();
      if (next && next.cert !== current) {
        server.setSecureContext({ cert: next.cert, key: next.key });
        current = next.cert;
      }
    } catch {
      // Renewal is retried on the next tick and at the next start; the current certificate keeps serving.
    }
  }, renewal?.everyMs ?? CERTIFICATE_CHECK_MS);
  timer.unref();
  // WebSocket upgrades go to the app's WebSocket routes; once the app is closing nobody listens there, so drop them.
  server.on('upgrade', (request, socket, head) => {
    if (app.server.listenerCount('upgrade') === 0) socket.destroy();
    else app.server.emit('upgrade', request, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      // Once listening, a server error (e.g. a failed accept) is reported, never thrown out of the process.
      server.off('error', reject);
      server.on('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `https://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

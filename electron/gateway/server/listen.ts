// Binds a built app to a host and port and reports the URL it really listens on (port 0 picks a free one).
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';

export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

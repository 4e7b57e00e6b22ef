// Test helper: a loopback port nothing listens on, for a channel whose upstream is down.
import { createServer } from 'node:net';

/** A port nothing listens on (taken, then released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

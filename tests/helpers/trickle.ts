// Test helper: raw TCP clients (node:net) that send a request's headers and then trickle its body, as a hostile slow client would.
import net from 'node:net';

/** A raw connection sending one byte of body at a time. */
export interface Trickler {
  socket: net.Socket;
  /** Everything the server sent back. */
  received: () => string;
  /** Resolves when the server (or anyone) closed the connection. */
  closed: Promise<void>;
  isClosed: () => boolean;
  stop(): void;
}

/** Opens a connection to `url`, sends a POST's headers announcing a large body, then one byte every `everyMs`. */
export async function trickle(url: string, options: { path?: string; token?: string; everyMs?: number } = {}): Promise<Trickler> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  let received = '';
  let closedFlag = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedFlag = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const auth = options.token ? `Authorization: Bearer ${options.token}\r\n` : '';
  socket.write(
    `POST ${options.path ?? '/v1/chat/completions'} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${auth}` +
      'Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{',
  );
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(' ');
  }, options.everyMs ?? 200);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
  return {
    socket,
    received: () => received,
    closed,
    isClosed: () => closedFlag,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

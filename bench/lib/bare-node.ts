// The bench's bare node:http servers (the floors with no framework): each request's body read whole and handed to the server's answer, listening on a free port and reporting its URL to the bench.
import { createServer, type ServerResponse } from 'node:http';

/** Starts a node:http server (keep-alive 60 s) calling `answer` with each request's whole body; it exits when the bench disconnects. */
export function serveBareNode(answer: (body: Buffer, outgoing: ServerResponse) => void): void {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => answer(Buffer.concat(chunks), outgoing));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.send?.({ url: `http://127.0.0.1:${address.port}` });
  });
  process.on('disconnect', () => process.exit(0));
}

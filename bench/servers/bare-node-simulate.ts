// A bare node:http server answering the baseline's fixed chat completion, with no framework: the floor of Node itself under the simulate-mode comparison.
import { createServer } from 'node:http';
import { CHAT_COMPLETION } from '../lib/fixtures.ts';

// It reads and parses the body and serializes the answer per call, as the bare Fastify route does, so the two differ by Fastify alone.
const server = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      outgoing.writeHead(400).end();
      return;
    }
    const body = JSON.stringify(CHAT_COMPLETION);
    outgoing.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    outgoing.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.send?.({ url: `http://127.0.0.1:${address.port}` });
});
process.on('disconnect', () => process.exit(0));

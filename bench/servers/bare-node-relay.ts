// A bare node:http + undici pass-through to the baseline upstream (no framework, auth, billing, journal or failover): the floor of any relay written in Node.
import { createServer } from 'node:http';
import { request } from 'undici';

const upstream = process.argv[2];
if (!upstream) throw new Error('usage: bare-node-relay.ts <upstream base URL>');

const server = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    request(`${upstream}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
      body: Buffer.concat(chunks),
    }).then(
      async (answer) => {
        const type = answer.headers['content-type'];
        outgoing.writeHead(answer.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
        for await (const chunk of answer.body) outgoing.write(chunk);
        outgoing.end();
      },
      () => {
        outgoing.writeHead(502).end();
      },
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.send?.({ url: `http://127.0.0.1:${address.port}` });
});
process.on('disconnect', () => process.exit(0));

// A bare node:http + undici pass-through to the baseline upstream (no framework, auth, billing, journal or failover): the floor of any relay written in Node.
import { request } from 'undici';
import { serveBareNode } from '../lib/bare-node.ts';

const upstream = process.argv[2];
if (!upstream) throw new Error('usage: bare-node-relay.ts <upstream base URL>');

serveBareNode((body, outgoing) => {
  request(`${upstream}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body,
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

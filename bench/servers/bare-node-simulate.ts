// A bare node:http server answering the baseline's fixed chat completion, with no framework: the floor of Node itself under the simulate-mode comparison.
import { CHAT_COMPLETION } from '../lib/fixtures.ts';
import { serveBareNode } from '../lib/bare-node.ts';

// It parses the body and serializes the answer per call, as the bare Fastify route does, so the two differ by Fastify alone.
serveBareNode((body, outgoing) => {
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    outgoing.writeHead(400).end();
    return;
  }
  const answer = JSON.stringify(CHAT_COMPLETION);
  outgoing.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
  outgoing.end(answer);
});

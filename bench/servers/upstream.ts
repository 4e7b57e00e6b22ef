// The baseline upstream: a minimal node:http server answering POST /v1/chat/completions with a fixed completion, or a fixed SSE stream when the body asks to stream.
import http from 'node:http';
import { CHAT_COMPLETION_JSON, CHAT_STREAM_EVENTS } from '../lib/fixtures.ts';

const completion = Buffer.from(CHAT_COMPLETION_JSON);
const events = CHAT_STREAM_EVENTS.map((event) => Buffer.from(event));

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    if (/"stream"\s*:\s*true/.test(Buffer.concat(chunks).toString())) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of events) response.write(event);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length }).end(completion);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.send?.({ url: `http://127.0.0.1:${address.port}` });
});
process.on('disconnect', () => process.exit(0));

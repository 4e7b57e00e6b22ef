// Unit tests of the bench's lean load generator: against real servers on port 0, it finds where every answer ends (a length, chunks, trailers, an answer cut into single bytes), counts a non-2xx answer as an error, and reconnects after `connection: close`.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { LeanConnection, leanRequest } from '../../../bench/lib/lean-load.ts';
import { closePools, runLoad } from '../../../bench/lib/load.ts';

const servers: { close(): void }[] = [];
after(async () => {
  for (const server of servers) server.close();
  await closePools();
});

/** A node:http server on port 0 answering by `handle`; resolves with its origin. */
async function httpServer(handle: http.RequestListener): Promise<URL> {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

/** A raw TCP server that writes `answer` one byte per write (with a pause) for every request head it reads. */
async function byteByByteServer(answer: string): Promise<URL> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    let pending = '';
    socket.on('data', async (chunk) => {
      pending += chunk.toString('latin1');
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(pending)?.[1] ?? 0);
      if (pending.length < end + 4 + length) return;
      pending = '';
      for (const byte of Buffer.from(answer)) {
        socket.write(Buffer.of(byte));
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

test('the request carries the method, path, headers and body as node:http reads them', async () => {
  let seen: { method?: string; url?: string; auth?: string; type?: string; body: string } | undefined;
  const origin = await httpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen = { method: request.method, url: request.url, auth: request.headers.authorization, type: request.headers['content-type'], body };
      response.end('ok');
    });
  });
  const connection = new LeanConnection(origin);
  const request = leanRequest(origin, 'POST', '/v1/chat?x=1', { 'content-type': 'application/json', authorization: 'Bearer t' }, '{"a":"é"}');
  const answer = await connection.exchange(request);
  connection.close();
  assert.equal(answer.status, 200);
  assert.deepEqual(seen, { method: 'POST', url: '/v1/chat?x=1', auth: 'Bearer t', type: 'application/json', body: '{"a":"é"}' });
});

test('answers of a length, of chunks and with trailers end where they end, one after another on one connection', async () => {
  let count = 0;
  const origin = await httpServer((_request, response) => {
    count += 1;
    if (count % 3 === 0) {
      response.end(JSON.stringify({ n: count, pad: 'x'.repeat(70_000) }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', ...(count % 3 === 2 && { trailer: 'x-done' }) });
    for (let event = 0; event < 20; event += 1) response.write(`data: ${'y'.repeat(event * 50)}\n\n`);
    if (count % 3 === 2) response.addTrailers({ 'x-done': 'yes' });
    response.end();
  });
  const connection = new LeanConnection(origin);
  const request = leanRequest(origin, 'GET', '/', {}, undefined);
  for (let call = 0; call < 9; call += 1) {
    const answer = await connection.exchange(request);
    assert.equal(answer.status, 200);
    assert.ok(answer.keepAlive);
    assert.ok(Number.isFinite(answer.firstByteAt));
  }
  connection.close();
  // Nine answers read to their end on one connection: the tenth request was never sent before the ninth ended.
  assert.equal(count, 9);
});

test('an answer written one byte at a time, chunked with an extension and a trailer, is read to its end', async () => {
  const answer =
    'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n' +
    '5;ext=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nx-trailer: 1\r\n\r\n';
  const origin = await byteByByteServer(answer);
  const connection = new LeanConnection(origin);
  const request = leanRequest(origin, 'POST', '/', {}, '{}');
  const first = await connection.exchange(request);
  const second = await connection.exchange(request);
  connection.close();
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
});

test('a length-framed answer one byte at a time, and an empty one, end at their length', async () => {
  const origin = await byteByByteServer('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world');
  const connection = new LeanConnection(origin);
  for (let call = 0; call < 3; call += 1) assert.equal((await connection.exchange(leanRequest(origin, 'GET', '/', {}, undefined))).status, 200);
  connection.close();
  const empty = await httpServer((_request, response) => response.writeHead(204).end());
  const second = new LeanConnection(empty);
  assert.equal((await second.exchange(leanRequest(empty, 'GET', '/', {}, undefined))).status, 204);
  second.close();
});

test('runLoad with the lean client counts answers, errors (non-2xx, a closed connection) and reconnects after connection: close', async () => {
  let calls = 0;
  const origin = await httpServer((request, response) => {
    calls += 1;
    if (request.url === '/fail') response.writeHead(500).end('no');
    else if (request.url === '/close') response.writeHead(200, { connection: 'close' }).end('bye');
    else if (request.url === '/drop') request.socket.destroy();
    else response.end('ok');
  });
  const before = process.env['BENCH_CLIENT'];
  process.env['BENCH_CLIENT'] = 'lean';
  try {
    const ok = await runLoad(origin.href.slice(0, -1), { method: 'GET', path: '/' }, 4, 300);
    assert.ok(ok.requests > 10, `${ok.requests} answers`);
    assert.equal(ok.errors, 0);
    assert.ok(ok.p50 > 0 && ok.p99 >= ok.p50 && ok.ttfb50 <= ok.p50);
    const failed = await runLoad(origin.href.slice(0, -1), { method: 'GET', path: '/fail' }, 2, 200);
    assert.equal(failed.requests, 0);
    assert.ok(failed.errors > 0);
    const closing = await runLoad(origin.href.slice(0, -1), { method: 'GET', path: (n) => (n % 2 === 0 ? '/close' : '/') }, 2, 300);
    assert.ok(closing.requests > 10, `${closing.requests} answers across reconnections`);
    assert.equal(closing.errors, 0);
    const dropped = await runLoad(origin.href.slice(0, -1), { method: 'GET', path: '/drop' }, 1, 100);
    assert.equal(dropped.requests, 0);
    assert.ok(dropped.errors > 0);
  } finally {
    if (before === undefined) delete process.env['BENCH_CLIENT'];
    else process.env['BENCH_CLIENT'] = before;
  }
  assert.ok(calls > 0);
});

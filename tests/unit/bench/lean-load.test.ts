// Unit tests of the bench's lean HTTP/1.1 client, against real servers on port 0: it reads an answer to its end however it is framed and cut (RFC 9112 §6.3), times its first body byte, fails what it cannot read rather than count it, and runLoad counts answers and errors as the undici client does.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { LeanConnection, leanRequest, type LeanRequest } from '../../../bench/lib/lean-load.ts';
import { closeClients, runLoad } from '../../../bench/lib/load.ts';

const closers: (() => void)[] = [];
after(async () => {
  for (const close of closers) close();
  await closeClients();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A node:http server on port 0; resolves with its origin and how many connections it accepted. */
async function httpServer(handle: http.RequestListener): Promise<{ origin: URL; connections: () => number }> {
  const server = http.createServer(handle);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { origin: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), connections: () => connections };
}

/**
 * A raw TCP server: for every whole request it reads, `answer(socket)` writes what it likes (pieces, pauses, a close);
 * resolves with its origin and how many connections it accepted.
 */
async function rawServer(answer: (socket: net.Socket) => Promise<void>): Promise<{ origin: URL; connections: () => number }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.setNoDelay(true);
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(pending)?.[1] ?? 0);
      if (pending.length < end + 4 + length) return;
      pending = '';
      void answer(socket).catch(() => socket.destroy());
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { origin: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), connections: () => connections };
}

/** Writes `text` one byte per write, a turn of the event loop apart. */
async function byteByByte(socket: net.Socket, text: string): Promise<void> {
  for (const byte of Buffer.from(text)) {
    socket.write(Buffer.of(byte));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const get = (origin: URL, path = '/'): LeanRequest => leanRequest(origin, 'GET', path, {}, undefined);

test('the request carries the method, path, headers and body as node:http reads them, and refuses headers the client writes', async () => {
  let seen: { method?: string; url?: string; auth?: string; type?: string; body: string } | undefined;
  const { origin } = await httpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen = { method: request.method, url: request.url, auth: request.headers.authorization, type: request.headers['content-type'], body };
      response.end('ok');
    });
  });
  const connection = new LeanConnection(origin);
  const request = leanRequest(
    origin,
    'POST',
    '/v1/chat?x=1',
    { 'content-type': 'application/json', authorization: 'Bearer t' },
    '{"a":"é"}',
  );
  assert.equal((await connection.exchange(request)).status, 200);
  connection.close();
  assert.deepEqual(seen, { method: 'POST', url: '/v1/chat?x=1', auth: 'Bearer t', type: 'application/json', body: '{"a":"é"}' });
  assert.throws(() => leanRequest(origin, 'POST', '/', { 'Content-Length': '3' }, 'abc'), /writes Content-Length itself/);
});

test('answers of a length, of chunks and with trailers are read to their end on one connection, no byte left over', async () => {
  let count = 0;
  const { origin, connections } = await httpServer((_request, response) => {
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
  // A byte read short or past an answer's end fails its exchange (bytes past the end) or the next one (a head it cannot read).
  for (let call = 0; call < 9; call += 1) assert.equal((await connection.exchange(get(origin))).status, 200);
  connection.close();
  assert.equal(count, 9);
  assert.equal(connections(), 1);
});

test('an answer written one byte at a time, chunked with an extension and a trailer, or of a length, is read to its end', async () => {
  const chunked =
    'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n' +
    '5;ext="1"\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nx-trailer: 1\r\n\r\n';
  const one = await rawServer((socket) => byteByByte(socket, chunked));
  const first = new LeanConnection(one.origin);
  for (let call = 0; call < 2; call += 1) assert.equal((await first.exchange(get(one.origin))).status, 201);
  first.close();
  const two = await rawServer((socket) => byteByByte(socket, 'HTTP/1.1 200 OK\r\nContent-Length:\t11\r\n\r\nhello world'));
  const second = new LeanConnection(two.origin);
  for (let call = 0; call < 3; call += 1) assert.equal((await second.exchange(get(two.origin))).status, 200);
  second.close();
  assert.equal(one.connections() + two.connections(), 2);
});

test('the first body byte is timed when it comes, not with the head', async () => {
  const { origin } = await rawServer(async (socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n');
    await sleep(40);
    socket.write('01234');
    await sleep(40);
    socket.write('56789');
  });
  const connection = new LeanConnection(origin);
  const sent = performance.now();
  const answer = await connection.exchange(get(origin));
  const ended = performance.now();
  connection.close();
  assert.ok(answer.firstByteAt - sent >= 35, `first byte after ${answer.firstByteAt - sent} ms`);
  assert.ok(ended - sent >= 75, `whole after ${ended - sent} ms`);
  assert.ok(answer.firstByteAt < ended);
});

test('an interim 103 answer is skipped: the final answer is the one read, and the next request gets its own', async () => {
  let count = 0;
  const { origin } = await httpServer((_request, response) => {
    count += 1;
    response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    setTimeout(() => response.end(`answer ${count}`), 10);
  });
  const connection = new LeanConnection(origin);
  assert.equal((await connection.exchange(get(origin))).status, 200);
  assert.equal((await connection.exchange(get(origin))).status, 200);
  connection.close();
  assert.equal(count, 2);
});

test('a body without a length or chunks ends when the server closes, with or without connection: close', async () => {
  for (const connectionHeader of ['Connection: close\r\n', '']) {
    const { origin, connections } = await rawServer(async (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\n${connectionHeader}\r\nhalf`);
      await sleep(40);
      socket.end(' and the rest');
    });
    const connection = new LeanConnection(origin);
    const sent = performance.now();
    assert.equal((await connection.exchange(get(origin))).status, 200);
    assert.ok(performance.now() - sent >= 35, 'settled at the close, not at the head');
    assert.equal((await connection.exchange(get(origin))).status, 200);
    connection.close();
    assert.equal(connections(), 2, 'the second request went on a new connection');
  }
});

test('a 304 and a HEAD answer end at their head whatever content-length says; a 204 too', async () => {
  const { origin } = await httpServer((request, response) => {
    if (request.url === '/304') response.writeHead(304, { 'content-length': '11' }).end();
    else if (request.url === '/204') response.writeHead(204).end();
    else response.writeHead(200, { 'content-length': '11' }).end(request.method === 'HEAD' ? undefined : 'hello world');
  });
  const connection = new LeanConnection(origin, 2_000);
  assert.equal((await connection.exchange(get(origin, '/304'))).status, 304);
  assert.equal((await connection.exchange(leanRequest(origin, 'HEAD', '/', {}, undefined))).status, 200);
  assert.equal((await connection.exchange(get(origin, '/204'))).status, 204);
  assert.equal((await connection.exchange(get(origin))).status, 200);
  connection.close();
});

test('what it cannot read fails the exchange: a garbled status line, bytes past the end, a stall past the time limit, a lost connection', async () => {
  const garbled = await rawServer(async (socket) => void socket.write('\r\nHTTP/1.1 500 Oops\r\ncontent-length: 0\r\n\r\n'));
  await assert.rejects(new LeanConnection(garbled.origin).exchange(get(garbled.origin)), /not an HTTP\/1.x status line/);
  const extra = await rawServer(async (socket) => void socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokEXTRA'));
  await assert.rejects(new LeanConnection(extra.origin).exchange(get(extra.origin)), /5 bytes past the answer's end/);
  const stalled = await rawServer(async (socket) => void socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npart'));
  await assert.rejects(new LeanConnection(stalled.origin, 200).exchange(get(stalled.origin)), /not whole after 200 ms/);
  const lost = await rawServer(async (socket) => void socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npart'));
  await assert.rejects(new LeanConnection(lost.origin).exchange(get(lost.origin)), /closed before the answer ended/);
  const busy = new LeanConnection(stalled.origin, 200);
  const first = busy.exchange(get(stalled.origin));
  assert.throws(() => busy.exchange(get(stalled.origin)), /one exchange at a time/);
  await assert.rejects(first);
});

test('a malformed framing fails at once: a chunk not followed by CRLF, a head with bare-LF lines, a head past 80 KiB', async () => {
  // Each connection waits 20 s before it would time out, so a failure other than the framing's own names the time limit.
  const unended = await rawServer(
    async (socket) => void socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nokXX0\r\n\r\n'),
  );
  await assert.rejects(new LeanConnection(unended.origin, 20_000).exchange(get(unended.origin)), /chunk's data not followed by CRLF/);
  const halfEnded = await rawServer(
    async (socket) => void socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\rX0\r\n\r\n'),
  );
  await assert.rejects(new LeanConnection(halfEnded.origin, 20_000).exchange(get(halfEnded.origin)), /chunk's data not followed by CRLF/);
  // The same CRLF written a byte at a time is read whole.
  const split = await rawServer((socket) =>
    byteByByte(socket, 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n'),
  );
  assert.equal((await new LeanConnection(split.origin, 20_000).exchange(get(split.origin))).status, 200);
  const bare = await rawServer(async (socket) => void socket.write('HTTP/1.1 200 OK\ncontent-length: 2\n\nok'));
  await assert.rejects(new LeanConnection(bare.origin, 20_000).exchange(get(bare.origin)), /head whose lines end in a bare LF/);
  // Bare-LF lines before a CRLF blank line, or a blank line of LF CRLF: the same (the first, read as CRLF lines, lost its length).
  for (const head of ['HTTP/1.1 500 Oops\ncontent-length: 2\r\n\r\nok', 'HTTP/1.1 200 OK\ncontent-length: 2\n\r\nok']) {
    const mixed = await rawServer(async (socket) => void socket.end(head));
    await assert.rejects(new LeanConnection(mixed.origin, 20_000).exchange(get(mixed.origin)), /head whose lines end in a bare LF/);
  }
  const huge = await rawServer(async (socket) => void socket.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(90 * 1024)}`));
  await assert.rejects(new LeanConnection(huge.origin, 20_000).exchange(get(huge.origin)), /head past 80 KiB/);
  // Whole, its blank line and body in the same write: refused as well, however the reads cut it.
  const whole = await rawServer(
    async (socket) => void socket.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(90 * 1024)}\r\ncontent-length: 2\r\n\r\nok`),
  );
  await assert.rejects(new LeanConnection(whole.origin, 20_000).exchange(get(whole.origin)), /head past 80 KiB/);
});

test('a connection idle past the server keep-alive hint (less a second) is replaced before the next request', async () => {
  const hinted = await rawServer(
    async (socket) => void socket.write('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\ncontent-length: 2\r\n\r\nok'),
  );
  const connection = new LeanConnection(hinted.origin);
  for (let call = 0; call < 3; call += 1) assert.equal((await connection.exchange(get(hinted.origin))).status, 200);
  connection.close();
  assert.equal(hinted.connections(), 3, 'a 1 s hint leaves no idle time to reuse');
  const plain = await rawServer(async (socket) => void socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
  const kept = new LeanConnection(plain.origin);
  for (let call = 0; call < 3; call += 1) assert.equal((await kept.exchange(get(plain.origin))).status, 200);
  kept.close();
  assert.equal(plain.connections(), 1);
});

test('runLoad with the lean client counts answers and errors as the undici client does, and reconnects after connection: close', async () => {
  const { origin, connections } = await httpServer((request, response) => {
    if (request.url === '/fail') response.writeHead(500).end('no');
    else if (request.url === '/close') response.writeHead(200, { connection: 'close' }).end('bye');
    else if (request.url === '/drop') request.socket.destroy();
    else if (request.url === '/late-body') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.flushHeaders();
      setTimeout(() => response.end('late'), 30);
    } else response.end('ok');
  });
  const garbled = await rawServer(async (socket) => void socket.write('HTTX/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
  const base = origin.href.slice(0, -1);
  const before = process.env['BENCH_CLIENT'];
  try {
    for (const client of ['lean', 'undici']) {
      process.env['BENCH_CLIENT'] = client;
      const ok = await runLoad(base, { method: 'GET', path: '/' }, 4, 300);
      assert.ok(ok.requests > 10 && ok.errors === 0, `${client}: ${ok.requests} answers, ${ok.errors} errors`);
      assert.ok(ok.p50 > 0 && ok.p99 >= ok.p50 && ok.ttfb50 <= ok.p50);
      const late = await runLoad(base, { method: 'GET', path: '/late-body' }, 2, 200);
      assert.ok(
        late.requests > 0 && late.ttfb50 >= 25 && late.p50 >= late.ttfb50,
        `${client}: first byte at ${late.ttfb50} ms of ${late.p50}`,
      );
      const failed = await runLoad(base, { method: 'GET', path: '/fail' }, 2, 200);
      assert.ok(failed.requests === 0 && failed.errors > 0, `${client}: a 500 is an error`);
      const dropped = await runLoad(base, { method: 'GET', path: '/drop' }, 1, 100);
      assert.ok(dropped.requests === 0 && dropped.errors > 0, `${client}: a dropped connection is an error`);
      const unreadable = await runLoad(garbled.origin.href.slice(0, -1), { method: 'GET', path: '/' }, 1, 100);
      assert.ok(unreadable.requests === 0 && unreadable.errors > 0, `${client}: an unreadable answer is an error`);
    }
    process.env['BENCH_CLIENT'] = 'lean';
    // A header the client writes itself is a mistake in the bench, not an error of the server: runLoad throws at once.
    await assert.rejects(runLoad(base, { method: 'GET', path: () => '/', headers: { host: 'elsewhere' } }, 1, 100), /writes host itself/);
    const opened = connections();
    const closing = await runLoad(base, { method: 'GET', path: (n) => (n % 2 === 0 ? '/close' : '/') }, 2, 300);
    assert.ok(closing.requests > 10 && closing.errors === 0, `${closing.requests} answers, ${closing.errors} errors`);
    // Every /close answer (half of them) made the next request open a connection of its own.
    assert.ok(connections() - opened >= closing.requests / 2 - 2, `${connections() - opened} connections for ${closing.requests} answers`);
  } finally {
    if (before === undefined) delete process.env['BENCH_CLIENT'];
    else process.env['BENCH_CLIENT'] = before;
  }
});

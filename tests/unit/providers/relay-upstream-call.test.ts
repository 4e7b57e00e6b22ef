// Unit tests of an upstream request's own undici handler, over a real socket: an answer the relay reads slower than it arrives is held back (the connection paused) within UPSTREAM_HELD_BYTES, and passes whole; an informational head is not the answer; a request stopped before it starts is never answered.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'undici';
import { UPSTREAM_HELD_BYTES, UpstreamCall } from '../../../electron/gateway/providers/relay/upstream-call.ts';
import { eventually } from '../../helpers/eventually.ts';

/** Far more than the kernel's socket buffers hold: an upstream that is not paused sends it all at once. */
const BIG = 32 * 1024 * 1024;
/** The most undici hands on in one chunk once paused (a socket read is up to 64 KiB; resuming a paused parse, up to two). */
const ONE_CHUNK = 128 * 1024;

let server: Server;
let client: Client;

before(async () => {
  const big = Buffer.alloc(BIG);
  for (let index = 0; index < BIG; index += 4096) big.writeUInt32BE(index, index);
  server = createServer((request, response) => {
    if (request.url === '/small') {
      response.end('{"a small":"answer"}');
      return;
    }
    if (request.url === '/early-hints') {
      response.writeEarlyHints({ link: '</style.css>; rel=preload' });
      response.end('after hints');
      return;
    }
    response.end(big);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

after(async () => {
  // Destroyed, not closed: a request a failed test left unread must not hold the run.
  await client.destroy();
  server.close();
});

test('an answer read slower than it arrives is held back within UPSTREAM_HELD_BYTES, and passes whole and in order', async () => {
  const call = new UpstreamCall();
  client.dispatch({ path: '/big', method: 'GET' }, call);
  assert.equal((await call.head).status, 200);
  await eventually(() => call.heldBytes >= UPSTREAM_HELD_BYTES, 'the first bytes held');
  // Not a speed assumption: a paused connection holds the bound however long this takes; the wait only gives an upstream
  // that was not paused the time to overrun it.
  await delay(100);
  let most = 0;
  const parts: Uint8Array[] = [];
  for (;;) {
    most = Math.max(most, call.heldBytes);
    const step = await call.next();
    if (step.done) break;
    parts.push(step.value);
  }
  assert.ok(most <= UPSTREAM_HELD_BYTES + ONE_CHUNK, `held ${most} bytes unread`);
  const body = Buffer.concat(parts);
  assert.equal(body.length, BIG);
  for (let index = 0; index < BIG; index += 4096) assert.equal(body.readUInt32BE(index), index);
});

test('an informational head (103 Early Hints) is not the answer: the final head and body are', async () => {
  const call = new UpstreamCall();
  client.dispatch({ path: '/early-hints', method: 'GET' }, call);
  assert.equal((await call.head).status, 200);
  const parts: Uint8Array[] = [];
  for await (const chunk of call) parts.push(chunk);
  assert.equal(Buffer.concat(parts).toString(), 'after hints');
});

test('a request stopped before it starts fails with the reason it was stopped for', async () => {
  const call = new UpstreamCall();
  const reason = new Error('the caller went away');
  call.abort(reason);
  client.dispatch({ path: '/big', method: 'GET' }, call);
  await assert.rejects(call.head, (error) => error === reason);
});

test('a small answer is at hand whole once its end came (what the relay then writes in one turn); before its end, nothing is', async () => {
  const call = new UpstreamCall();
  client.dispatch({ path: '/small', method: 'GET' }, call);
  assert.equal((await call.head).status, 200);
  await eventually(() => call.ended, 'the end came');
  assert.equal(Buffer.from(call.wholeAtHand()!).toString(), '{"a small":"answer"}');
  assert.equal(call.wholeAtHand()!.length, 0, 'taken: nothing is left');
  assert.deepEqual(await call.next(), { done: true, value: undefined });
  const open = new UpstreamCall();
  client.dispatch({ path: '/big', method: 'GET' }, open);
  await open.head;
  assert.equal(open.wholeAtHand(), undefined, 'an answer still coming is not whole');
  await open.return();
});

// A channel key an upstream puts right where the gateway stops reading or cuts a text is hidden all the same: a relayed error body read up to its limit, and a refused realtime handshake's message, show no start of the key.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { WebSocket } from 'ws';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import type { TestGateway } from '../helpers/gateway.ts';

const KEY = 'sk-cut-key-Hx7Qz9fE2MnB4vR8tYwP0aS3dG';
/** The key's first half: what a cut right through it would leave. */
const KEY_START = KEY.slice(0, 18);
/** The relay reads an error answer's first 64 KiB; a refused realtime upgrade's message is its body's first 500 characters. */
const RELAY_ERROR_LIMIT = 64 * 1024;
const HANDSHAKE_MESSAGE_LENGTH = 500;

let upstream: HostileUpstream;
let gw: TestGateway;

before(async () => {
  upstream = await hostileUpstream(async (received, response) => {
    response.writeHead(400, { 'content-type': 'text/plain' });
    if (received.url.includes('/realtime')) {
      // A short refusal of the upgrade: its message is its first 500 characters, which end half way into the key.
      response.end(`${'z'.repeat(HANDSHAKE_MESSAGE_LENGTH - KEY_START.length)}${KEY} and more`);
      return;
    }
    // The body's first write ends half way into the key, right at the relay's read limit; the rest comes after a pause.
    response.write('x'.repeat(RELAY_ERROR_LIMIT - KEY_START.length) + KEY_START);
    await new Promise((resolve) => setTimeout(resolve, 200));
    response.end(`${KEY.slice(KEY_START.length)} and more`);
  });
  gw = await gatewayBefore(upstream, 'openai', KEY);
});
after(async () => {
  await gw?.stop();
  await upstream?.close();
});

test('a relayed error body whose read stops inside the key shows no start of it', async () => {
  const client = new OpenAI({ apiKey: gw.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const error = await client.chat.completions
    .create({ model: 'up-model', messages: [{ role: 'user', content: 'hi' }] })
    .catch((caught: unknown) => caught);
  assert.ok(error instanceof OpenAI.BadRequestError, String(error));
  const text = JSON.stringify(error.error ?? error.message);
  assert.ok(text.includes('xxxx'), 'the body as read is passed on');
  assert.equal(text.includes(KEY_START), false, 'no start of the key');
});

test('a refused realtime handshake whose message is cut inside the key shows no start of it', async () => {
  const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=up-model`, {
    headers: { authorization: `Bearer ${gw.token}` },
  });
  const seen: string[] = [];
  socket.on('message', (data: Buffer) => seen.push(data.toString('utf8')));
  socket.on('unexpected-response', (_request, response) => {
    response.on('data', (chunk: Buffer) => seen.push(chunk.toString('utf8')));
  });
  await new Promise((resolve) => {
    socket.once('close', resolve);
    socket.once('error', resolve);
  });
  assert.ok(seen.length > 0, 'the refusal was told');
  assert.equal(seen.join('').includes(KEY_START), false, `no start of the key in ${seen.join('').slice(-200)}`);
});

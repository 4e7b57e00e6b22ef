// A realtime relay's handshake is timed whole: an upstream that trickles its refusal of the upgrade, each silence short, is cut at the channel's timeout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { gatewayBefore, hostileUpstream } from '../helpers/hostile-upstream.ts';

test('an upstream that trickles its refusal of the upgrade is cut at the channel timeout, not kept while each silence is short', async () => {
  let wrote = 0;
  let cut = false;
  const trickling = await hostileUpstream(async (_received, response, raw) => {
    raw.socket.once('close', () => (cut = true));
    response.writeHead(400, { 'content-type': 'text/plain' });
    // 200 bytes over 20 s, 100 ms apart: each silence far below the channel's 500 ms, the whole far above it.
    for (; wrote < 100 && !cut; wrote++) {
      response.write('..');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    response.end();
  });
  const slow = await gatewayBefore(trickling, 'openai', 'sk-handshake-key-0123456789', { timeoutMs: 500 });
  try {
    const socket = new WebSocket(`${slow.url.replace('http', 'ws')}/v1/realtime?model=up-model`, {
      headers: { authorization: `Bearer ${slow.token}` },
    });
    const refusal: string[] = [];
    socket.on('message', (data: Buffer) => refusal.push(data.toString('utf8')));
    socket.on('unexpected-response', (_request, response) => response.on('data', (chunk: Buffer) => refusal.push(chunk.toString('utf8'))));
    await new Promise((resolve) => {
      socket.once('close', resolve);
      socket.once('error', resolve);
    });
    // Refused with the upstream's status and what of its body came within the timeout.
    assert.match(refusal.join(''), /HTTP 400 on the upgrade: \.\.\.\./);
    assert.ok(cut && wrote < 100, `the upstream's connection was cut after ${wrote} of its 100 writes`);
  } finally {
    await slow.stop();
    await trickling.close();
  }
});

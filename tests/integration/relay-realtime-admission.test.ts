// A relayed realtime session cannot slip a response past its token's quota by how it writes the event: a `response.create` whose type is spelled with a JSON escape, or sent in a binary frame, is admitted (here refused) like a plain one, and never reaches the upstream.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quotaToken } from '../helpers/quota.ts';
import { openRelayedSession, relayedRealtime } from '../helpers/realtime-upstream.ts';

/** The event types the stand-in upstream read from the gateway, as it parses them. */
const upstreamSaw: string[] = [];
const relayed = relayedRealtime((ws) =>
  ws.on('message', (data: Buffer) => {
    const event = JSON.parse(data.toString('utf8')) as { type: string };
    upstreamSaw.push(event.type);
    if (event.type === 'response.create') {
      const response = { id: 'resp_1', status: 'completed', usage: { total_tokens: 2, input_tokens: 1, output_tokens: 1 } };
      ws.send(JSON.stringify({ type: 'response.done', event_id: 'e1', response }));
    }
  }),
);

test('an escaped or binary response.create on a spent quota is answered with the quota error and never sent upstream', async () => {
  // 1000 output tokens at 1.5 USD per million hold 1500 µ: a quota of 100 µ pays for none.
  const { gw } = relayed;
  const { secret } = await quotaToken(gw, 'rt-admission', 0.0001);
  const rt = await openRelayedSession(gw, secret);
  try {
    const frames: [string, (text: string) => void][] = [
      ['evt_plain', (text) => rt.socket.send(text)],
      ['evt_escaped', (text) => rt.socket.send(text.replace('response.create', 'response\\u002ecreate'))],
      ['evt_binary', (text) => rt.socket.send(Buffer.from(text), { binary: true })],
    ];
    for (const [eventId, send] of frames) {
      send(JSON.stringify({ type: 'response.create', event_id: eventId, response: { max_output_tokens: 1000 } }));
      const refusal = await rt.next((event) => event.type === 'error' || event.type === 'response.done');
      assert.equal(refusal.type, 'error', `${eventId}: ${JSON.stringify(refusal)}`);
      assert.equal(refusal.error.code, 'permission_denied');
      assert.match(refusal.error.message, /quota/);
      assert.equal(refusal.error.event_id, eventId);
    }
    // A frame the upstream reads after the three: all three were held back before it.
    rt.send({ type: 'input_audio_buffer.clear' });
    for (let waited = 0; !upstreamSaw.includes('input_audio_buffer.clear') && waited < 600; waited++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(upstreamSaw, ['input_audio_buffer.clear'], 'no response.create reached the upstream');
  } finally {
    rt.socket.close();
    await rt.closing;
  }
});

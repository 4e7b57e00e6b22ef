// A relayed realtime session's responses that the upstream starts on its own (its voice detection answering a turn) are held against the token's quota as a client's are: one the caller cannot pay for is cancelled upstream and answered with the quota error (and the session ends once the token may no longer spend at all), and each response's end lets go of its own hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { request } from '../helpers/gateway.ts';
import { quotaToken, spentMicros } from '../helpers/quota.ts';
import { openRelayedSession, relayedRealtime } from '../helpers/realtime-upstream.ts';

/** The `max_output_tokens` the stand-in upstream's next responses carry (as a session limited by the client's `session.update` has them). */
let responseLimit: number | 'inf' = 'inf';
/** The responses the stand-in upstream was asked to cancel, by id. */
const cancelled: string[] = [];
/** The `response.done` of each response the upstream started and has not ended, sent when the test says so. */
const ends = new Map<string, () => void>();
/** One response's usage: 1 input and 1 output token, 2 micro-units at the default price (0.5 and 1.5 USD a million). */
const USAGE = { input_tokens: 1, output_tokens: 1, total_tokens: 2 };
let responses = 0;

const relayed = relayedRealtime((ws) =>
  ws.on('message', (data: Buffer) => {
    const event = JSON.parse(data.toString('utf8')) as { type: string; response_id?: string };
    // As server voice detection does after a turn: a response the client never asked for.
    if (event.type === 'input_audio_buffer.commit') {
      const id = `resp_up${++responses}`;
      const started = { id, status: 'in_progress', max_output_tokens: responseLimit };
      ws.send(JSON.stringify({ type: 'response.created', event_id: `c${id}`, response: started }));
      ends.set(id, () => {
        const response = { id, status: 'completed', usage: USAGE };
        ws.send(JSON.stringify({ type: 'response.done', event_id: `d${id}`, response }));
      });
    }
    if (event.type === 'response.cancel' && event.response_id !== undefined) {
      const id = event.response_id;
      cancelled.push(id);
      ends.delete(id);
      const response = { id, status: 'cancelled', usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } };
      ws.send(JSON.stringify({ type: 'response.done', event_id: `x${id}`, response }));
    }
  }),
);

test('a response the upstream starts is held from its start: a second one at once past the quota is cancelled upstream with the quota error, and the first one ending frees the quota for the next', async () => {
  const { gw } = relayed;
  // A response nobody limited holds 16,384 output tokens at 1.5 USD a million, 24,576 µ: 30,000 µ pay for one at a time.
  const { secret, tokenId } = await quotaToken(gw, 'rt-upstream-started', 0.03);
  const rt = await openRelayedSession(gw, secret);
  try {
    rt.send({ type: 'input_audio_buffer.commit' });
    assert.equal((await rt.next('response.created')).response.id, 'resp_up1');
    // The first is still under way (its hold taken): the second cannot be paid for beside it.
    rt.send({ type: 'input_audio_buffer.commit' });
    assert.equal((await rt.next('response.created')).response.id, 'resp_up2');
    const refusal = await rt.next((event) => event.type === 'error' || event.type === 'response.done');
    assert.equal(refusal.type, 'error', JSON.stringify(refusal));
    assert.match(refusal.error.message, /quota/);
    const stopped = await rt.next('response.done');
    assert.deepEqual([stopped.response.id, stopped.response.status], ['resp_up2', 'cancelled']);
    assert.deepEqual(cancelled, ['resp_up2'], 'only the refused response was cancelled upstream');

    // The first ends: its own hold is let go (the cancelled one's end let go of none), so the next is held and goes on.
    ends.get('resp_up1')!();
    assert.equal((await rt.next('response.done')).response.id, 'resp_up1');
    rt.send({ type: 'input_audio_buffer.commit' });
    assert.equal((await rt.next('response.created')).response.id, 'resp_up3');
    ends.get('resp_up3')!();
    const done = await rt.next((event) => event.type === 'error' || event.type === 'response.done');
    assert.deepEqual([done.type, done.response?.id], ['response.done', 'resp_up3'], JSON.stringify(done));
    assert.deepEqual(cancelled, ['resp_up2']);
    // Charged by the upstream's usage: two answered responses, the cancelled one nothing.
    await eventually(async () => (await spentMicros(gw, tokenId)) === 4, 'both answered responses charged');
  } finally {
    rt.socket.close();
    await rt.closing;
  }
});

test('with too little quota left for it, a response the upstream starts is cancelled at once and answered with the quota error; the session goes on', async () => {
  const { gw } = relayed;
  const { secret } = await quotaToken(gw, 'rt-upstream-spent', 0.0001);
  const rt = await openRelayedSession(gw, secret);
  try {
    const before = cancelled.length;
    for (let turn = 0; turn < 2; turn++) {
      rt.send({ type: 'input_audio_buffer.commit' });
      const id = (await rt.next('response.created')).response.id as string;
      const refusal = await rt.next((event) => event.type === 'error' || event.type === 'response.done');
      assert.equal(refusal.type, 'error', JSON.stringify(refusal));
      assert.match(refusal.error.message, /quota/);
      assert.equal((await rt.next('response.done')).response.status, 'cancelled');
      assert.equal(cancelled.at(-1), id);
    }
    assert.equal(cancelled.length, before + 2);
  } finally {
    rt.socket.close();
    await rt.closing;
  }
});

test('a token revoked during the session: the next response the upstream starts is cancelled, and the session ends with the error', async () => {
  const { gw } = relayed;
  const { secret, tokenId } = await quotaToken(gw, 'rt-upstream-revoked', 10);
  const rt = await openRelayedSession(gw, secret);
  const revoked = await request(`${gw.url}/admin/api/tokens/${tokenId}/revoke`, 'POST', { token: gw.gateway.adminToken });
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
  const before = cancelled.length;
  rt.send({ type: 'input_audio_buffer.commit' });
  const id = (await rt.next('response.created')).response.id as string;
  const refusal = await rt.next('error');
  assert.match(refusal.error.message, /revoked/i);
  const closed = await rt.closing;
  assert.equal(closed.code, 3000);
  await eventually(() => cancelled.length > before, 'the upstream was told to cancel');
  assert.equal(cancelled.at(-1), id);
  // The upstream session is closed too (every earlier test's closed with its client).
  await eventually(() => relayed.wss.clients.size === 0, 'the upstream session closed');
});

test("a response the upstream starts under the session's output limit is held for that limit, not the default's most", async () => {
  const { gw } = relayed;
  // 200 output tokens hold 300 µ: 1,000 µ pay for it, where a response nobody limited (24,576 µ) would be refused.
  const { secret } = await quotaToken(gw, 'rt-upstream-limited', 0.001);
  const rt = await openRelayedSession(gw, secret);
  responseLimit = 200;
  try {
    const before = cancelled.length;
    rt.send({ type: 'input_audio_buffer.commit' });
    const id = (await rt.next('response.created')).response.id as string;
    ends.get(id)!();
    const done = await rt.next((event) => event.type === 'error' || event.type === 'response.done');
    assert.deepEqual([done.type, done.response?.status], ['response.done', 'completed'], JSON.stringify(done));
    assert.equal(cancelled.length, before, 'nothing cancelled');
  } finally {
    responseLimit = 'inf';
    rt.socket.close();
    await rt.closing;
  }
});

// A token's quota holds for realtime responses under concurrency: 40 sessions at once (translated, relayed over WebSocket, simulated), each response holding its most before it is planned or sent; the refused get an error event and never reach the upstream, and each hold is given back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { eventually } from '../helpers/eventually.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { quotaToken, spentMicros } from '../helpers/quota.ts';
import { openRaw } from '../helpers/realtime.ts';
import { startRelayedRealtime } from '../helpers/realtime-upstream.ts';

const SESSIONS = 40;

/** Waits until `done()` holds, looking again every few milliseconds (bounded: a broken gateway fails the test, never hangs it). */
function until(done: () => boolean | Promise<boolean>, what: string): Promise<unknown> {
  return eventually(done, what, { withinMs: 60_000, everyMs: 5 });
}

/** A gate the stand-in upstreams wait at until every session of a round was refused or reached them. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * One session on `gw` for `model`: a text turn, then a response of at most `maxOutput` tokens. Resolves `answered` at its
 * `response.done`, or `refused` at a quota `error` event (any other ending fails the test); the socket is closed after.
 */
async function oneResponse(gw: TestGateway, secret: string, model: string, maxOutput: number, headers: Record<string, string> = {}) {
  const rt = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=${model}`, {
    headers: { authorization: `Bearer ${secret}`, ...headers },
  });
  try {
    await rt.next('session.created');
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await rt.next('session.updated');
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hold on' }] },
    });
    rt.send({ type: 'response.create', event_id: 'evt_ask', response: { max_output_tokens: maxOutput } });
    const end = await rt.next((event) => event.type === 'response.done' || event.type === 'error');
    if (end.type === 'response.done') return 'answered' as const;
    assert.equal(end.error.code, 'permission_denied', JSON.stringify(end));
    assert.match(end.error.message, /quota/);
    assert.equal(end.error.event_id, 'evt_ask');
    return 'refused' as const;
  } finally {
    rt.socket.close();
    await rt.closing;
  }
}

/** SESSIONS sessions at once; the upstream's answers wait at `round.opened` until each was refused or reached it (`reached()`). */
async function round(ask: () => Promise<'answered' | 'refused'>, reached: () => number, held: { open(): void }) {
  let refused = 0;
  const outcomes = Array.from({ length: SESSIONS }, () => ask().then((outcome) => (outcome === 'refused' && refused++, outcome)));
  await until(() => refused + reached() >= SESSIONS, 'every session refused or upstream');
  held.open();
  const done = await Promise.all(outcomes);
  return { answered: done.filter((outcome) => outcome === 'answered').length, refused };
}

/**
 * How both relayed tests end: the three answered responses are charged `charged` µ each, exactly, and their holds are given
 * back: once `release()` lets the upstream answer again, one more response of `model` is answered on the same quota.
 */
async function assertChargedThenReleased(
  gw: TestGateway,
  token: { secret: string; tokenId: string },
  model: string,
  charged: number,
  release: () => void,
): Promise<void> {
  await until(async () => (await spentMicros(gw, token.tokenId)) >= 3 * charged, 'the answered responses charged');
  assert.equal(await spentMicros(gw, token.tokenId), 3 * charged);
  release();
  assert.equal(await oneResponse(gw, token.secret, model, 1000), 'answered', 'the holds were given back');
}

describe('a quota holds for realtime responses under concurrency', { timeout: 120_000 }, () => {
  test('translated sessions (Anthropic channel): refused responses are error events and never go upstream; holds are given back', async () => {
    let held = gate();
    const upstream: HostileUpstream = await hostileUpstream(async (_, response) => {
      await held.opened;
      response.writeHead(200, { 'content-type': 'application/json' });
      const content = [{ type: 'text', text: 'Harbour lights.' }];
      const usage = { input_tokens: 41, output_tokens: 13 };
      response.end(
        JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-up', content, stop_reason: 'end_turn', usage }),
      );
    });
    const gw = await gatewayBefore(upstream, 'anthropic');
    try {
      // Default price (0.5 and 1.5 USD per million): a response of up to 1000 output tokens holds about 1510 µ; 5000 µ hold three.
      const { secret, tokenId } = await quotaToken(gw, 'quota-rt-translated', 0.005);
      const outcome = await round(
        () => oneResponse(gw, secret, 'claude-up', 1000),
        () => upstream.requests.length,
        held,
      );
      assert.equal(outcome.answered, 3);
      assert.equal(upstream.requests.length, 3, 'a refused response never reaches the upstream');
      await assertChargedThenReleased(gw, { secret, tokenId }, 'claude-up', 41 * 0.5 + 13 * 1.5, () => {
        held = gate();
        held.open();
      });
    } finally {
      await gw.stop();
      await upstream.close();
    }
  });

  test('relayed sessions (OpenAI realtime channel): each response.create holds until its response.done, refused ones are never sent', async () => {
    let held = gate();
    let creates = 0;
    const relayed = await startRelayedRealtime((ws) =>
      ws.on('message', async (data: Buffer) => {
        const event = JSON.parse(data.toString('utf8')) as { type: string; session?: unknown };
        if (event.type === 'session.update') ws.send(JSON.stringify({ type: 'session.updated', event_id: 'e1', session: event.session }));
        if (event.type !== 'response.create') return;
        creates++;
        await held.opened;
        const usage = { total_tokens: 50, input_tokens: 20, output_tokens: 30 };
        ws.send(JSON.stringify({ type: 'response.created', event_id: 'e2', response: { id: `resp_${creates}`, status: 'in_progress' } }));
        ws.send(JSON.stringify({ type: 'response.done', event_id: 'e3', response: { id: `resp_${creates}`, status: 'completed', usage } }));
      }),
    );
    const { gw } = relayed;
    try {
      // No input estimate (the upstream keeps the conversation): 1000 output tokens at 1.5 USD per million hold 1500 µ; 5000 µ hold three.
      const { secret, tokenId } = await quotaToken(gw, 'quota-rt-relayed', 0.005);
      const outcome = await round(
        () => oneResponse(gw, secret, 'rt-up', 1000),
        () => creates,
        held,
      );
      assert.equal(outcome.answered, 3);
      assert.equal(creates, 3, 'a refused response.create never reaches the upstream');
      await assertChargedThenReleased(gw, { secret, tokenId }, 'rt-up', 20 * 0.5 + 30 * 1.5, () => {
        held = gate();
        held.open();
      });
    } finally {
      await relayed.stop();
    }
  });

  describe('simulated sessions', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway();
    });
    after(() => gw.stop());

    test('paced responses: no more run at once than the quota holds, and the total stays within it', async () => {
      // sim-realtime: 4 USD per million input tokens, 16 per million output; a response of up to 50 tokens holds about 900 µ.
      const { secret, tokenId } = await quotaToken(gw, 'quota-rt-simulated', 0.002);
      let refused = 0;
      await Promise.all(
        Array.from({ length: SESSIONS }, async () => {
          // Twenty tokens a second: each answer streams for seconds, so the responses overlap.
          if ((await oneResponse(gw, secret, 'sim-realtime', 50, { 'x-gatehouse-pace': '20' })) === 'refused') refused++;
        }),
      );
      assert.ok(refused > 0, 'some responses are refused');
      const spent = await spentMicros(gw, tokenId);
      assert.ok(spent > 0 && spent <= 2000, `charged ${spent} µ on a quota of 2000 µ`);
    });

    test('input audio transcriptions: each holds its seconds before it is told, and the total stays within the quota', async () => {
      // One second of audio costs 100 µ to transcribe: 250 µ pay for two.
      const { secret, tokenId } = await quotaToken(gw, 'quota-rt-transcribed', 0.00025);
      const outcomes = await Promise.all(
        Array.from({ length: SESSIONS }, async () => {
          const rt = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
            headers: { authorization: `Bearer ${secret}` },
          });
          try {
            await rt.next('session.created');
            const input = { turn_detection: null, transcription: { model: 'whisper-1' } };
            rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input } } });
            await rt.next('session.updated');
            rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(48_000).toString('base64') });
            rt.send({ type: 'input_audio_buffer.commit', event_id: 'evt_commit' });
            const end = await rt.next(
              (event) => event.type === 'conversation.item.input_audio_transcription.completed' || event.type === 'error',
            );
            if (end.type === 'error') {
              assert.match(end.error.message, /quota/, JSON.stringify(end));
              return 'refused';
            }
            return 'transcribed';
          } finally {
            rt.socket.close();
            await rt.closing;
          }
        }),
      );
      assert.ok(outcomes.includes('refused'), 'some transcriptions are refused');
      const spent = await spentMicros(gw, tokenId);
      assert.ok(spent > 0 && spent <= 250, `charged ${spent} µ on a quota of 250 µ`);
    });
  });
});

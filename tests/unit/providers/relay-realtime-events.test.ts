// Unit tests of the realtime relay's pieces: the channel's WebSocket URL, the subprotocols offered upstream, and the events read and renamed as they pass.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { realtimeUrl, upstreamProtocols } from '../../../electron/gateway/providers/relay/openai/realtime.ts';
import { RealtimeEvents, RESPONSE_ID_KEPT_CHARS } from '../../../electron/gateway/providers/relay/openai/realtime-events.ts';
import type { RelayChannel, RelayedUsage } from '../../../electron/gateway/providers/types.ts';
import { countTokens } from '../../../electron/gateway/protocols/neutral/tokens.ts';

const channel = (extra: Partial<RelayChannel> = {}): RelayChannel => ({
  id: 'c1',
  name: 'c1',
  kind: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  upstreamModel: 'gpt-realtime',
  priority: 0,
  weight: 1,
  timeoutMs: 1000,
  idleTimeoutMs: 1000,
  deadlineMs: 10_000,
  headers: {},
  key: 'sk-test',
  ...extra,
});

/** Events read by a RealtimeEvents renaming `local` to `upstream`, with every charge kept; `admit` refuses when given text. */
function tap(local = 'mine', upstream = 'theirs', refusal: string | null = null) {
  const charged: RelayedUsage[] = [];
  const events = new RealtimeEvents(local, upstream, { charge: (usage) => charged.push(usage), admit: () => refusal });
  return { events, charged };
}
const json = (value: unknown) => JSON.stringify(value);

describe('realtime relay URL and subprotocols', () => {
  test('the base URL becomes wss:// (https) or ws:// (http) with /realtime and the upstream model', () => {
    assert.equal(realtimeUrl(channel()), 'wss://api.openai.com/v1/realtime?model=gpt-realtime');
    assert.equal(
      realtimeUrl(channel({ baseUrl: 'http://127.0.0.1:8080/v1/', upstreamModel: 'a b&c' })),
      'ws://127.0.0.1:8080/v1/realtime?model=a+b%26c',
    );
  });

  test('credential subprotocols never go upstream; an organization goes only when the channel sets none', () => {
    const offered = [
      'realtime',
      'openai-insecure-api-key.sk-client',
      'gatehouse.token.x',
      'openai-beta.realtime-v1',
      'openai-organization.org1',
    ];
    assert.deepEqual(upstreamProtocols(offered, channel()), ['realtime', 'openai-beta.realtime-v1', 'openai-organization.org1']);
    assert.deepEqual(upstreamProtocols(offered, channel({ headers: { 'OpenAI-Organization': 'org2' } })), [
      'realtime',
      'openai-beta.realtime-v1',
    ]);
  });
});

describe('realtime relay events', () => {
  test("session.created and session.updated name the caller's model; other events pass byte for byte", () => {
    const { events } = tap();
    const passed = events.fromUpstream(json({ type: 'session.created', session: { model: 'theirs', voice: 'x' } }));
    assert.equal(typeof passed, 'string');
    const created = JSON.parse(passed as string);
    assert.deepEqual(created.session, { model: 'mine', voice: 'x' });
    const other = '{"type":"response.output_text.delta",  "response_id":"r1","delta":"hi"}';
    assert.equal(events.fromUpstream(other), other);
    assert.equal(events.fromUpstream('not json'), 'not json');
  });

  test('without a rename, session events pass as they are', () => {
    const { events } = tap('same', 'same');
    const text = json({ type: 'session.created', session: { model: 'same' } });
    assert.equal(events.fromUpstream(text), text);
  });

  test("a client's session.update naming its model goes up under the channel's name", () => {
    const { events } = tap();
    const sent = events.fromClient(json({ type: 'session.update', session: { model: 'mine', instructions: 'x' } }));
    assert.equal(typeof sent, 'string');
    assert.deepEqual(JSON.parse(sent as string).session, { model: 'theirs', instructions: 'x' });
    const append = json({ type: 'input_audio_buffer.append', audio: 'AAAA' });
    assert.equal(events.fromClient(append), append);
  });

  test('a response.create the caller may not pay for is answered instead of sent', () => {
    const { events } = tap('mine', 'theirs', '{"type":"error"}');
    assert.deepEqual(events.fromClient(json({ type: 'response.create', event_id: 'e1' })), { answer: '{"type":"error"}' });
    const allowed = tap();
    const create = json({ type: 'response.create' });
    assert.equal(allowed.events.fromClient(create), create);
  });

  test('each response.done is charged its usage; a response cut by the end is charged the text it delivered, once', () => {
    const { events, charged } = tap();
    events.fromUpstream(json({ type: 'response.created', response: { id: 'r1' } }));
    events.fromUpstream(json({ type: 'response.output_text.delta', response_id: 'r1', delta: 'Hello ' }));
    events.fromUpstream(json({ type: 'response.done', response: { id: 'r1', usage: { input_tokens: 7, output_tokens: 2 } } }));
    events.fromUpstream(json({ type: 'response.created', response: { id: 'r2' } }));
    events.fromUpstream(json({ type: 'response.output_audio_transcript.delta', response_id: 'r2', delta: 'cut ' }));
    events.fromUpstream(json({ type: 'response.audio_transcript.delta', response_id: 'r2', delta: 'short' }));
    events.end();
    events.end();
    assert.deepEqual(charged, [
      { delivered: { tokens: countTokens('Hello ') }, inputTokens: 7, outputTokens: 2 },
      { delivered: { tokens: countTokens('cut short') } },
    ]);
  });

  test('each response the upstream starts is told to `started` by its id, and charged by it; one refused passes on with the refusal for the client and its cancellation for the upstream', () => {
    const charged: [RelayedUsage, string | undefined][] = [];
    const started: string[] = [];
    const refusal = json({ type: 'error', error: { message: 'quota' } });
    const events = new RealtimeEvents('mine', 'theirs', {
      charge: (usage, responseId) => charged.push([usage, responseId]),
      admit: () => null,
      started: (responseId) => (started.push(responseId), responseId === 'r2' ? { event: refusal } : null),
    });
    const first = json({ type: 'response.created', response: { id: 'r1' } });
    assert.equal(events.fromUpstream(first), first);
    events.fromUpstream(json({ type: 'response.done', response: { id: 'r1', usage: { input_tokens: 3, output_tokens: 1 } } }));
    const second = json({ type: 'response.created', response: { id: 'r2' } });
    assert.deepEqual(events.fromUpstream(second), {
      text: second,
      client: refusal,
      upstream: json({ type: 'response.cancel', response_id: 'r2' }),
    });
    events.end();
    assert.deepEqual(started, ['r1', 'r2']);
    assert.deepEqual(charged, [
      [{ delivered: { tokens: 0 }, inputTokens: 3, outputTokens: 1 }, 'r1'],
      [{ delivered: { tokens: 0 } }, 'r2'],
    ]);
  });

  test('a refusal that ends the session passes its close on; an upstream error naming a client event is told to `rejected`', () => {
    const rejected: string[] = [];
    const close = { code: 3000, reason: 'insufficient_quota' };
    const events = new RealtimeEvents('mine', 'theirs', {
      charge: () => undefined,
      admit: () => null,
      started: () => ({ event: 'spent', close }),
      rejected: (eventId) => void rejected.push(eventId),
    });
    const created = json({ type: 'response.created', response: { id: 'r1' } });
    assert.deepEqual(events.fromUpstream(created), {
      text: created,
      client: 'spent',
      upstream: json({ type: 'response.cancel', response_id: 'r1' }),
      close,
    });
    const error = json({ type: 'error', error: { type: 'invalid_request_error', message: 'busy', event_id: 'evt_7' } });
    assert.equal(events.fromUpstream(error), error);
    events.fromUpstream(json({ type: 'error', error: { message: 'no event named' } }));
    assert.deepEqual(rejected, ['evt_7']);
  });

  test('a response id of megabytes is known by its start: one kept per response, and its cancellation names the whole id', () => {
    const seen: string[] = [];
    const charged: (string | undefined)[] = [];
    const events = new RealtimeEvents('mine', 'theirs', {
      charge: (_usage, responseId) => charged.push(responseId),
      admit: () => null,
      started: (responseId) => (seen.push(responseId), { event: 'refused' }),
    });
    const id = `resp_${'x'.repeat(1_000_000)}`;
    const passed = events.fromUpstream(json({ type: 'response.created', response: { id } }));
    assert.equal(typeof passed === 'string' ? undefined : JSON.parse(passed.upstream).response_id, id);
    events.fromUpstream(json({ type: 'response.done', response: { id } }));
    assert.deepEqual(
      [...seen, ...charged].map((kept) => kept?.length),
      [RESPONSE_ID_KEPT_CHARS, RESPONSE_ID_KEPT_CHARS],
    );
    assert.equal(seen[0], charged[0]);
  });

  test('a response cut after delivering megabytes is charged every word it delivered, counted as it passed', () => {
    const { events, charged } = tap();
    events.fromUpstream(json({ type: 'response.created', response: { id: 'r1' } }));
    const delta = 'word '.repeat(20_000);
    for (let i = 0; i < 30; i += 1) events.fromUpstream(json({ type: 'response.output_text.delta', response_id: 'r1', delta }));
    events.end();
    assert.deepEqual(charged, [{ delivered: { tokens: 30 * countTokens(delta) } }]);
  });
});

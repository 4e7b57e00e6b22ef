// Integration tests of /v1/realtime: the official openai SDK over wss:// trusting the local CA, raw ws clients, auth and beta names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import { listen, synthesizeSpeech } from '../../electron/gateway/providers/simulate/fsk-voice.ts';
import { pcmBytes, pcmSamples } from '../../electron/gateway/providers/simulate/pcm.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

type ServerEvent = { type: string; [key: string]: any };

/** Collects a raw socket's events and waits for one of a type. */
function eventsOf(socket: WebSocket) {
  const events: ServerEvent[] = [];
  const waiters: { type: string; from: number; resolve: (e: ServerEvent) => void }[] = [];
  socket.on('message', (data: Buffer) => {
    const event = JSON.parse(data.toString()) as ServerEvent;
    events.push(event);
    for (const waiter of [...waiters]) {
      if (event.type === waiter.type) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  return {
    events,
    next: (type: string) => {
      const seen = events.find((event, i) => event.type === type && i >= (eventsOf as any).cursor);
      if (seen) return Promise.resolve(seen);
      return new Promise<ServerEvent>((resolve) => waiters.push({ type, from: events.length, resolve }));
    },
  };
}

describe('realtime', () => {
  let gw: TestGateway;
  let ca: string;
  let tlsUrl: string;
  before(async () => {
    gw = await startGateway({ tlsPort: 0 });
    tlsUrl = gw.gateway.context.runtime.tlsUrl!;
    ca = readFileSync(`${gw.dataDir}/tls/ca.pem`, 'utf8');
  });
  after(() => gw.stop());

  const sdkSession = (beta = false) => {
    const client = new OpenAI({ apiKey: gw.token, baseURL: `${tlsUrl}/v1` });
    const rt = new OpenAIRealtimeWS({ model: 'sim-realtime', options: { ca, ...(beta && { headers: { 'OpenAI-Beta': 'realtime=v1' } }) } }, client);
    const events: ServerEvent[] = [];
    rt.on('event', (event: ServerEvent) => events.push(event));
    const until = (type: string, from = 0) =>
      new Promise<ServerEvent>((resolve, reject) => {
        const found = events.slice(from).find((event) => event.type === type);
        if (found) return resolve(found);
        const onEvent = (event: ServerEvent) => {
          if (event.type === type) {
            rt.off('event', onEvent);
            resolve(event);
          }
        };
        rt.on('event', onEvent);
        rt.on('error', reject);
      });
    return { rt, events, until };
  };

  test('the openai SDK connects over wss:// trusting the CA and runs a text turn with events in order', async () => {
    const { rt, events, until } = sdkSession();
    await until('session.created');
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.' } });
    await until('session.updated');
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me about lighthouses.' }] } });
    rt.send({ type: 'response.create' });
    const done = await until('response.done');
    rt.close();
    const types = events.map((event) => event.type);
    const order = [
      'session.created',
      'session.updated',
      'conversation.item.added',
      'conversation.item.done',
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.done',
    ];
    let cursor = -1;
    for (const type of order) {
      const at = types.indexOf(type, cursor + 1);
      assert.ok(at > cursor, `${type} after position ${cursor} in ${types.join(', ')}`);
      cursor = at;
    }
    assert.ok(events.every((event) => typeof event.event_id === 'string'));
    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
    assert.equal(events.find((e) => e.type === 'response.output_text.done')!.text, text);
    assert.match(text.toLowerCase(), /lighthouses/);
    assert.equal(done.response.status, 'completed');
    assert.ok(done.response.usage.output_tokens > 0);
  });

  test('an audio turn: appended speech is detected, committed and answered with PCM16 audio and its transcript', async () => {
    const { rt, events, until } = sdkSession();
    await until('session.created');
    const speech = pcmBytes(synthesizeSpeech('hello there'));
    rt.send({ type: 'input_audio_buffer.append', audio: speech.toString('base64') });
    rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(9600).toString('base64') });
    await until('input_audio_buffer.speech_started');
    await until('input_audio_buffer.speech_stopped');
    await until('input_audio_buffer.committed');
    const done = await until('response.done');
    rt.close();
    const audio = Buffer.concat(events.filter((e) => e.type === 'response.output_audio.delta').map((e) => Buffer.from(e.delta, 'base64')));
    assert.ok(audio.length > 24_000, 'more than half a second of 24 kHz PCM16');
    assert.equal(audio.length % 2, 0);
    const transcript = events.filter((e) => e.type === 'response.output_audio_transcript.delta').map((e) => e.delta).join('');
    assert.equal(events.find((e) => e.type === 'response.output_audio_transcript.done')!.transcript, transcript);
    assert.ok(transcript.length > 0);
    assert.equal(done.response.output[0].content[0].transcript, transcript);
    assert.equal(listen(pcmSamples(audio)), transcript, 'the audio says its transcript (same voice as /v1/audio/speech)');
    const billed = gw.gateway.context.db.prepare("SELECT COUNT(*) AS n FROM usage_records WHERE endpoint = '/v1/realtime'").get() as { n: number };
    assert.ok(billed.n >= 1, 'each response is billed');
  });

  test('tools configured on the session give function-call argument events', async () => {
    const { rt, events, until } = sdkSession();
    await until('session.created');
    rt.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['text'], tools: [{ type: 'function', name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } }], tool_choice: 'required' },
    });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What time is it?' }] } });
    rt.send({ type: 'response.create' });
    await until('response.done');
    rt.close();
    const argsDone = events.find((e) => e.type === 'response.function_call_arguments.done')!;
    assert.equal(argsDone.name, 'get_time');
    const streamed = events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join('');
    assert.equal(streamed, argsDone.arguments);
    assert.equal(typeof JSON.parse(argsDone.arguments).zone, 'string');
  });

  test('a raw ws:// client gets an error event for bad client events, and the socket stays open', async () => {
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, { headers: { authorization: `Bearer ${gw.token}` } });
    const { events } = eventsOf(socket);
    await new Promise((resolve) => socket.once('open', resolve));
    const wait = async (predicate: (e: ServerEvent) => boolean) => {
      for (let i = 0; i < 200 && !events.some(predicate); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return events.find(predicate)!;
    };
    socket.send('this is not json');
    socket.send(JSON.stringify({ type: 'response.teleport', event_id: 'evt_1' }));
    socket.send(JSON.stringify({ type: 'input_audio_buffer.commit', event_id: 'evt_2' }));
    const parseError = await wait((e) => e.type === 'error' && e.error.code === 'invalid_json');
    const unknown = await wait((e) => e.type === 'error' && e.error.event_id === 'evt_1');
    const empty = await wait((e) => e.type === 'error' && e.error.event_id === 'evt_2');
    assert.equal(parseError.error.type, 'invalid_request_error');
    assert.match(unknown.error.message, /Unknown client event type/);
    assert.match(empty.error.message, /buffer is empty/);
    socket.send(JSON.stringify({ type: 'session.update', session: { instructions: 'still here' } }));
    const updated = await wait((e) => e.type === 'session.updated');
    assert.equal(updated.session.instructions, 'still here');
    assert.equal(socket.readyState, WebSocket.OPEN);
    socket.close();
  });

  test('browser-style subprotocol auth works, a bad token is refused, and beta clients get beta event names', async () => {
    const browser = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, ['realtime', `openai-insecure-api-key.${gw.token}`, 'openai-beta.realtime-v1']);
    const { events } = eventsOf(browser);
    await new Promise((resolve) => browser.once('open', resolve));
    assert.equal(browser.protocol, 'realtime');
    browser.send(JSON.stringify({ type: 'session.update', session: { modalities: ['text'] } }));
    browser.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } }));
    browser.send(JSON.stringify({ type: 'response.create' }));
    for (let i = 0; i < 300 && !events.some((e) => e.type === 'response.done'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    browser.close();
    const types = new Set(events.map((e) => e.type));
    assert.ok(types.has('response.text.delta') && types.has('conversation.item.created'));
    assert.ok(!types.has('response.output_text.delta') && !types.has('conversation.item.done'));

    const refused = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime`, { headers: { authorization: 'Bearer sk-gh-wrong' } });
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (request, response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      }),
    );
    refused.on('error', () => {});
    assert.equal(status, 401);
  });

  test('response.cancel stops a response in progress; with none in progress it is an error event', async () => {
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-echo`, { headers: { authorization: `Bearer ${gw.token}` } });
    const { events } = eventsOf(socket);
    await new Promise((resolve) => socket.once('open', resolve));
    const wait = async (predicate: (e: ServerEvent) => boolean) => {
      for (let i = 0; i < 500 && !events.some(predicate); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return events.find(predicate)!;
    };
    const long = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ');
    socket.send(JSON.stringify({ type: 'session.update', session: { output_modalities: ['text'] } }));
    socket.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: long }] } }));
    socket.send(JSON.stringify({ type: 'response.create' }));
    await wait((e) => e.type === 'response.output_text.delta');
    socket.send(JSON.stringify({ type: 'response.cancel' }));
    const done = await wait((e) => e.type === 'response.done');
    assert.equal(done.response.status, 'cancelled');
    const said = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
    assert.ok(said.length > 0 && said.length < long.length, 'cut part-way');
    socket.send(JSON.stringify({ type: 'response.cancel', event_id: 'evt_late' }));
    const late = await wait((e) => e.type === 'error' && e.error.event_id === 'evt_late');
    assert.match(late.error.message, /no active response/);
    socket.close();
  });

  test('the TLS port serves the HTTP API too', async () => {
    const dispatcher = new Agent({ connect: { ca } });
    const response = await undiciFetch(`${tlsUrl}/v1/models`, { headers: { authorization: `Bearer ${gw.token}` }, dispatcher });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { object: string }).object, 'list');
    await dispatcher.close();
  });
});

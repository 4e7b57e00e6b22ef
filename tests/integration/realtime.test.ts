// Integration tests of /v1/realtime: the official openai SDK over wss:// trusting the local CA (text, audio, tools, beta), auth, the TLS port and the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { Agent, fetch as undiciFetch } from 'undici';
import { listen, synthesizeSpeech } from '../../electron/gateway/providers/simulate/fsk-voice.ts';
import { pcmBytes, pcmSamples } from '../../electron/gateway/providers/simulate/pcm.ts';
import { amountMicros } from '../../electron/gateway/services/pricing.ts';
import { serveCli } from '../helpers/cli.ts';
import { startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';
import { inOrder, openRaw, sdkLog } from '../helpers/realtime.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `ms` of silence as PCM16 24 kHz bytes. */
const silence = (ms: number) => Buffer.alloc(ms * 48);

describe('realtime over the openai SDK', { timeout: 60_000 }, () => {
  let gw: TestGateway;
  let ca: string;
  let tlsUrl: string;
  before(async () => {
    gw = await startGateway({ tlsPort: 0 });
    tlsUrl = gw.gateway.context.runtime.tlsUrl!;
    ca = readFileSync(`${gw.dataDir}/tls/ca.pem`, 'utf8');
  });
  after(() => gw.stop());

  /** The SDK's realtime client on the TLS port, trusting the gateway's CA through the `ws` options. */
  const connect = (model: string, extra: { headers?: Record<string, string>; apiKey?: string } = {}) => {
    const client = new OpenAI({ apiKey: extra.apiKey ?? gw.token, baseURL: `${tlsUrl}/v1` });
    const rt = new OpenAIRealtimeWS({ model, options: { ca, ...(extra.headers && { headers: extra.headers }) } }, client);
    return { rt, log: sdkLog(rt) };
  };
  const usageRows = (model: string) =>
    gw.gateway.context.db
      .prepare("SELECT input_tokens, output_tokens, amount_micros FROM usage_records WHERE endpoint = '/v1/realtime' AND model = ?")
      .all(model) as {
      input_tokens: number;
      output_tokens: number;
      amount_micros: number;
    }[];

  test('the SDK dials wss:// and runs a text turn: the GA events in order, each with a unique event_id, billed at the price table', async () => {
    const { rt, log } = connect('sim-realtime');
    assert.equal(rt.url.protocol, 'wss:');
    const created = await log.next('session.created');
    assert.equal(created.session.type, 'realtime');
    assert.equal(created.session.model, 'sim-realtime');
    assert.deepEqual(created.session.output_modalities, ['audio']);
    assert.deepEqual(created.session.audio.input.format, { type: 'audio/pcm', rate: 24000 });
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.' } });
    const updated = await log.next('session.updated');
    assert.deepEqual(updated.session.output_modalities, ['text']);
    assert.equal(updated.session.instructions, 'Be brief.');
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me about lighthouses.' }] },
    });
    rt.send({ type: 'response.create' });
    const done = await log.next('response.done');
    rt.close();
    const order = [
      'session.created',
      'session.updated',
      'conversation.item.added',
      'conversation.item.done',
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
    ];
    assert.equal(inOrder(log.types(), order), undefined);
    assert.equal(new Set(log.events.map((e) => e.event_id)).size, log.events.length, 'event ids are unique');
    const deltas = log.events.filter((e) => e.type === 'response.output_text.delta');
    const text = deltas.map((e) => e.delta).join('');
    assert.ok(deltas.length > 1, 'the text streams in several deltas');
    assert.equal(log.events.find((e) => e.type === 'response.output_text.done')!.text, text);
    assert.match(text.toLowerCase(), /lighthouses/);
    assert.equal(done.response.status, 'completed');
    assert.equal(done.response.output[0].content[0].type, 'output_text');
    assert.equal(done.response.output[0].content[0].text, text);
    const { usage } = done.response;
    assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
    assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0);
    assert.equal(usage.output_token_details.audio_tokens, 0);
    const [row] = usageRows('sim-realtime');
    assert.deepEqual(row, {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      amount_micros: amountMicros('sim-realtime', usage.input_tokens, usage.output_tokens),
    });
    assert.ok(row!.amount_micros > 0, 'sim-realtime has a price row');
  });

  test('an audio turn: streamed speech is detected by server VAD, committed, heard and answered with PCM16 audio that says its transcript', async () => {
    const { rt, log } = connect('sim-echo');
    await log.next('session.created');
    const speech = pcmBytes(synthesizeSpeech('what a lovely day'));
    const stream = Buffer.concat([silence(500), speech, silence(600)]);
    for (let at = 0; at < stream.length; at += 960)
      rt.send({ type: 'input_audio_buffer.append', audio: stream.subarray(at, at + 960).toString('base64') });
    const done = await log.next('response.done');
    rt.close();
    const order = [
      'input_audio_buffer.speech_started',
      'input_audio_buffer.speech_stopped',
      'input_audio_buffer.committed',
      'conversation.item.added',
      'conversation.item.done',
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_audio.delta',
      'response.output_audio_transcript.delta',
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.done',
    ];
    assert.equal(inOrder(log.types(), order), undefined);
    const started = log.events.find((e) => e.type === 'input_audio_buffer.speech_started')!;
    const stopped = log.events.find((e) => e.type === 'input_audio_buffer.speech_stopped')!;
    const committed = log.events.find((e) => e.type === 'input_audio_buffer.committed')!;
    const userItem = log.events.find((e) => e.type === 'conversation.item.added')!.item;
    assert.equal(stopped.item_id, started.item_id, 'speech_started promises the id of the item that speech_stopped commits');
    assert.equal(committed.item_id, started.item_id);
    assert.equal(userItem.id, started.item_id);
    assert.deepEqual(userItem.content, [{ type: 'input_audio', transcript: null }]);
    // Speech begins 500 ms in; the start includes the 300 ms prefix padding; the stop includes the 500 ms of silence.
    assert.equal(started.audio_start_ms, 200);
    const speechMs = speech.length / 48;
    assert.ok(
      Math.abs(stopped.audio_end_ms - (500 + speechMs + 500)) <= 20,
      `audio_end_ms ${stopped.audio_end_ms} for ${speechMs} ms of speech`,
    );

    const audio = Buffer.concat(
      log.events.filter((e) => e.type === 'response.output_audio.delta').map((e) => Buffer.from(e.delta, 'base64')),
    );
    const transcript = log.events
      .filter((e) => e.type === 'response.output_audio_transcript.delta')
      .map((e) => e.delta)
      .join('');
    assert.equal(transcript, 'what a lovely day', 'the echo model heard the spoken words');
    assert.equal(log.events.find((e) => e.type === 'response.output_audio_transcript.done')!.transcript, transcript);
    assert.equal(done.response.output[0].content[0].transcript, transcript);
    assert.equal(listen(pcmSamples(audio)), transcript, 'the answer audio says its transcript (same voice as /v1/audio/speech)');
    const { usage } = done.response;
    assert.ok(usage.input_token_details.audio_tokens > 0 && usage.output_token_details.audio_tokens > 0);
    assert.equal(usage.output_tokens, usage.output_token_details.text_tokens + usage.output_token_details.audio_tokens);
    // 24 kHz PCM16 at 20 tokens per second of answer.
    assert.equal(usage.output_token_details.audio_tokens, Math.ceil((audio.length / 48_000) * 20));
    assert.equal(usageRows('sim-echo').length, 1, 'the response is billed');
  });

  test('session tools give function-call argument events; the function output answers the next response', async () => {
    const { rt, log } = connect('sim-realtime');
    await log.next('session.created');
    const tool = {
      type: 'function' as const,
      name: 'get_time',
      description: 'Current time',
      parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
    };
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [tool], tool_choice: 'required' } });
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What time is it?' }] },
    });
    rt.send({ type: 'response.create' });
    const done = await log.next('response.done');
    const argsDone = log.events.find((e) => e.type === 'response.function_call_arguments.done')!;
    assert.equal(argsDone.name, 'get_time');
    const streamed = log.events
      .filter((e) => e.type === 'response.function_call_arguments.delta')
      .map((e) => e.delta)
      .join('');
    assert.equal(streamed, argsDone.arguments);
    assert.equal(typeof JSON.parse(argsDone.arguments).zone, 'string');
    const call = done.response.output[0];
    assert.deepEqual(
      [call.type, call.status, call.call_id, call.arguments],
      ['function_call', 'completed', argsDone.call_id, argsDone.arguments],
    );
    rt.send({ type: 'session.update', session: { type: 'realtime', tool_choice: 'auto' } });
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'function_call_output', call_id: call.call_id, output: '{"time":"12:30"}' },
    });
    rt.send({ type: 'response.create' });
    const answer = await log.next('response.done');
    rt.close();
    assert.match(answer.response.output[0].content[0].text, /12:30/);
  });

  test('beta clients (OpenAI-Beta: realtime=v1) get the beta session shape and event names, and may send beta fields', async () => {
    const { rt, log } = connect('sim-realtime', { headers: { 'OpenAI-Beta': 'realtime=v1' } });
    const created = await log.next('session.created');
    assert.deepEqual(created.session.modalities, ['audio', 'text']);
    assert.equal(created.session.input_audio_format, 'pcm16');
    rt.send({ type: 'session.update', session: { modalities: ['text'], turn_detection: null, voice: 'verse' } } as any);
    const updated = await log.next('session.updated');
    assert.deepEqual([updated.session.modalities, updated.session.turn_detection, updated.session.voice], [['text'], null, 'verse']);
    rt.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
    });
    rt.send({ type: 'response.create' });
    await log.next('response.done');
    rt.send({ type: 'response.create', response: { modalities: ['audio', 'text'] } } as any);
    await log.next('response.done');
    rt.close();
    const types = new Set(log.types());
    for (const beta of [
      'conversation.item.created',
      'response.text.delta',
      'response.text.done',
      'response.audio.delta',
      'response.audio_transcript.delta',
      'response.audio.done',
    ]) {
      assert.ok(types.has(beta), beta);
    }
    for (const ga of ['conversation.item.added', 'conversation.item.done', 'response.output_text.delta', 'response.output_audio.delta'])
      assert.ok(!types.has(ga), ga);
    const part = log.events.find((e) => e.type === 'response.content_part.added')!.part;
    assert.equal(part.type, 'text');
  });

  test('a refused token: the SDK reports invalid_api_key from an error event, and the socket closes with 3000', async () => {
    const { rt, log } = connect('sim-realtime', { apiKey: 'sk-gh-not-a-real-token' });
    const closed = new Promise<number>((resolve) => rt.socket.once('close', (code: number) => resolve(code)));
    const error = await log.next('error');
    assert.equal(error.error.code, 'invalid_api_key');
    assert.equal(error.error.type, 'invalid_request_error');
    assert.equal(await closed, 3000);
    assert.match(String(log.errors[0]?.message), /invalid_api_key/);
    assert.ok(!log.types().includes('session.created'));
  });

  test('the TLS port serves the HTTP API too', async () => {
    const dispatcher = new Agent({ connect: { ca } });
    try {
      const response = await undiciFetch(`${tlsUrl}/v1/models`, { headers: { authorization: `Bearer ${gw.token}` }, dispatcher });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { object: string }).object, 'list');
    } finally {
      await dispatcher.close();
    }
  });

  test('stopping the gateway closes open realtime sockets and stops', async () => {
    const other = await startGateway({ tlsPort: 0 });
    const client = await openRaw(`${other.gateway.context.runtime.tlsUrl!.replace('https', 'wss')}/v1/realtime`, {
      ca: readFileSync(`${other.dataDir}/tls/ca.pem`),
      headers: { authorization: `Bearer ${other.token}` },
    });
    await client.next('session.created');
    await other.stop();
    assert.ok((await client.closing).code > 0);
  });
});

describe('gatehouse serve with TLS', { timeout: 60_000 }, () => {
  test('prints the TLS URL and CA path; a Node process trusting the CA via NODE_EXTRA_CA_CERTS runs the SDK over wss://', async () => {
    const dataDir = tempDataDir();
    const server = await serveCli(['--port', '0', '--tls-port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    try {
      const token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
      while (!server.stdout.some((line) => line.startsWith('tls ca: ')))
        await new Promise((resolve) => server.child.stdout.once('data', resolve));
      const listening = server.stdout.findIndex((line) => line.startsWith('listening on http://'));
      const tlsLine = server.stdout.findIndex((line) => /^tls listening on https:\/\/127\.0\.0\.1:\d+$/.test(line));
      assert.ok(listening >= 0 && tlsLine > listening, server.stdout.join('\n'));
      const tlsUrl = server.stdout[tlsLine]!.slice('tls listening on '.length);
      const caPath = `${dataDir}/tls/ca.pem`;
      assert.ok(server.stdout.some((line) => line.startsWith(`tls ca: ${caPath}`)));
      const script = `
        import OpenAI from 'openai';
        import { OpenAIRealtimeWS } from 'openai/realtime/ws';
        const rt = new OpenAIRealtimeWS({ model: 'sim-echo' }, new OpenAI({ apiKey: process.env.TOKEN, baseURL: process.env.BASE }));
        rt.on('error', (error) => { console.error(error.message); process.exit(1); });
        rt.on('session.created', () => {
          rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
          rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'over tls' }] } });
          rt.send({ type: 'response.create' });
        });
        rt.on('response.done', (event) => { console.log(event.response.output[0].content[0].text); rt.close(); });`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ROOT,
        env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath, TOKEN: token, BASE: `${tlsUrl}/v1` },
        encoding: 'utf8',
      });
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout.trim(), 'over tls');
      const untrusted = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ROOT,
        env: { ...process.env, NODE_EXTRA_CA_CERTS: '', TOKEN: token, BASE: `${tlsUrl}/v1` },
        encoding: 'utf8',
      });
      assert.notEqual(untrusted.status, 0, 'without the CA the certificate is refused');
      assert.match(untrusted.stderr, /certificate/i);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});

// Integration tests of realtime session details over raw ws:// clients: errors that keep the socket open, auth carriers, items, cancel, VAD, transcription, formats, quota.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen, synthesizeSpeech } from '../../electron/gateway/providers/simulate/fsk-voice.ts';
import { pcmBytes, pcmSamples } from '../../electron/gateway/providers/simulate/pcm.ts';
import { decodeAudio, encodeAudio } from '../../electron/gateway/realtime/audio-format.ts';
import { MAX_SPEECH_SECONDS } from '../../electron/gateway/providers/simulate/speech-limit.ts';
import { transcriptionPriceMicros } from '../../electron/gateway/services/pricing.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { openRaw, type RawClient } from '../helpers/realtime.ts';

const say = (text: string) => pcmBytes(synthesizeSpeech(text));
const silence = (ms: number) => Buffer.alloc(ms * 48);
const userText = (text: string) => ({
  type: 'conversation.item.create',
  item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
});
/** A message the echo model takes long to say, so a response stays in progress while the test acts. */
const LONG = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ');

describe('realtime sessions over ws://', { timeout: 60_000 }, () => {
  let gw: TestGateway;
  let wsUrl: string;
  before(async () => {
    gw = await startGateway();
    wsUrl = `${gw.url.replace('http', 'ws')}/v1/realtime`;
  });
  after(() => gw.stop());

  const open = async (query = 'model=sim-realtime', headers: Record<string, string> = {}): Promise<RawClient> => {
    const client = await openRaw(`${wsUrl}?${query}`, { headers: { authorization: `Bearer ${gw.token}`, ...headers } });
    await client.next('session.created');
    return client;
  };
  const errorFor = (client: RawClient, eventId: string) => client.next((e) => e.type === 'error' && e.error.event_id === eventId, 0);

  test('bad client events get error events naming the problem; the socket stays open and answers the next good event', async () => {
    const client = await open();
    client.send('this is not json');
    const parse = await client.next('error');
    assert.deepEqual([parse.error.type, parse.error.code, parse.error.event_id], ['invalid_request_error', 'invalid_json', null]);
    const cases: [Record<string, unknown>, string, string | null][] = [
      [{ type: 'response.teleport' }, 'invalid_value', 'type'],
      [{ no_type: true }, 'missing_required_parameter', 'type'],
      [{ type: 'session.update', session: { type: 'realtime', instructions: 5 } }, 'invalid_type', 'session.instructions'],
      [{ type: 'session.update', session: { instructions: 'no type' } }, 'missing_required_parameter', 'session.type'],
      [
        { type: 'session.update', session: { type: 'realtime', output_modalities: ['text', 'audio'] } },
        'invalid_value',
        'session.output_modalities',
      ],
      [
        {
          type: 'session.update',
          session: { type: 'realtime', audio: { input: { turn_detection: { type: 'server_vad', threshold: 2 } } } },
        },
        'invalid_value',
        'session.audio.input.turn_detection.threshold',
      ],
      [{ type: 'input_audio_buffer.commit' }, 'input_audio_buffer_commit_empty', null],
      [{ type: 'input_audio_buffer.append', audio: 'not base64!' }, 'invalid_value', 'audio'],
      [
        { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [] } },
        'missing_required_parameter',
        'item.content',
      ],
      [
        { type: 'conversation.item.create', item: { type: 'message', role: 'system', content: [{ type: 'input_audio', audio: '' }] } },
        'invalid_value',
        'item.content[0].type',
      ],
      [
        { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_nowhere', output: '1' } },
        'invalid_value',
        'item.call_id',
      ],
      [
        { type: 'conversation.item.create', previous_item_id: 'item_missing', item: userText('x').item },
        'item_not_found',
        'previous_item_id',
      ],
      [{ type: 'conversation.item.delete', item_id: 'item_missing' }, 'item_not_found', 'item_id'],
      [{ type: 'response.create', response: { conversation: 'elsewhere' } }, 'invalid_value', 'response.conversation'],
      [{ type: 'response.cancel' }, 'response_cancel_not_active', null],
    ];
    cases.forEach(([event, ,], i) => client.send({ ...event, event_id: `evt_${i}` }));
    for (const [i, [, code, param]] of cases.entries()) {
      const error = await errorFor(client, `evt_${i}`);
      assert.deepEqual([error.error.code, error.error.param], [code, param], `case ${i}: ${error.error.message}`);
      assert.equal(typeof error.error.message, 'string');
    }
    const unknown = await errorFor(client, 'evt_0');
    assert.match(unknown.error.message, /Invalid value: 'response\.teleport'\. Supported values are: 'session\.update'/);
    const empty = await errorFor(client, 'evt_6');
    assert.match(empty.error.message, /buffer too small\. Expected at least 100ms of audio, but buffer only has 0\.00ms of audio/);
    client.send({ type: 'session.update', session: { type: 'realtime', instructions: 'still here' } });
    const updated = await client.next('session.updated');
    assert.equal(updated.session.instructions, 'still here');
    assert.equal(client.socket.readyState, client.socket.OPEN);
    assert.equal(client.types().filter((t) => t === 'session.updated').length, 1, 'none of the bad updates was applied');
    client.socket.close();
  });

  test('auth: browser subprotocols (the accepted one echoed), ?key=, and a missing token refused over the socket', async () => {
    const browser = await openRaw(`${wsUrl}?model=sim-realtime`, { protocols: ['realtime', `openai-insecure-api-key.${gw.token}`] });
    assert.equal(browser.socket.protocol, 'realtime');
    assert.equal((await browser.next('session.created')).session.model, 'sim-realtime');
    browser.socket.close();
    const keyed = await openRaw(`${wsUrl}?model=sim-realtime&key=${gw.token}`);
    await keyed.next('session.created');
    keyed.socket.close();
    const anonymous = await openRaw(wsUrl);
    const refused = await anonymous.next('error');
    assert.equal(refused.error.code, 'invalid_api_key');
    assert.match(refused.error.message, /Missing API token/);
    assert.deepEqual(await anonymous.closing, { code: 3000, reason: 'invalid_request_error.invalid_api_key' });
    const wrongKey = await openRaw(wsUrl, { protocols: ['realtime', 'openai-insecure-api-key.sk-gh-wrong'] });
    assert.equal((await wrongKey.next('error')).error.code, 'invalid_api_key');
    assert.equal((await wrongKey.closing).code, 3000);
  });

  test('the beta subprotocol selects beta names too', async () => {
    const client = await openRaw(`${wsUrl}?model=sim-echo`, {
      protocols: ['realtime', `openai-insecure-api-key.${gw.token}`, 'openai-beta.realtime-v1'],
    });
    assert.equal(client.socket.protocol, 'realtime');
    await client.next('session.created');
    client.send({ type: 'session.update', session: { modalities: ['text'] } });
    client.send(userText('hi'));
    client.send({ type: 'response.create' });
    await client.next('response.done');
    client.socket.close();
    assert.ok(client.types().includes('conversation.item.created') && client.types().includes('response.text.delta'));
    assert.ok(!client.types().includes('conversation.item.done') && !client.types().includes('response.output_text.delta'));
  });

  test('conversation items: insert at root, retrieve with audio, truncate spoken audio, delete', async () => {
    const client = await open('model=sim-echo');
    client.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: null } } } });
    client.send({ ...userText('second'), item: { ...userText('second').item, id: 'item_second' } });
    client.send({ ...userText('first'), previous_item_id: 'root', item: { ...userText('first').item, id: 'item_first' } });
    const added = [await client.next('conversation.item.added'), await client.next('conversation.item.added')];
    assert.deepEqual(
      added.map((e) => [e.item.id, e.previous_item_id]),
      [
        ['item_second', null],
        ['item_first', null],
      ],
    );
    const spoken = say('hello from the mic');
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_audio', audio: spoken.toString('base64') }] },
    });
    const audioItem = (await client.next('conversation.item.added')).item;
    assert.deepEqual(audioItem.content, [{ type: 'input_audio', transcript: null }], 'audio data is not echoed back');
    client.send({ type: 'conversation.item.retrieve', item_id: audioItem.id });
    const retrieved = await client.next('conversation.item.retrieved');
    assert.equal(retrieved.item.content[0].audio, spoken.toString('base64'));

    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    const answer = done.response.output[0];
    assert.equal(answer.content[0].transcript, 'hello from the mic', 'the model heard the input_audio content');
    client.send({ type: 'conversation.item.retrieve', item_id: answer.id });
    const spokenAnswer = Buffer.from((await client.next('conversation.item.retrieved')).item.content[0].audio, 'base64');
    assert.equal(listen(pcmSamples(spokenAnswer)), 'hello from the mic');
    const durationMs = Math.round(spokenAnswer.length / 48);
    client.send({
      type: 'conversation.item.truncate',
      item_id: answer.id,
      content_index: 0,
      audio_end_ms: durationMs + 100,
      event_id: 'evt_long',
    });
    assert.match((await errorFor(client, 'evt_long')).error.message, /already shorter than/);
    client.send({ type: 'conversation.item.truncate', item_id: answer.id, content_index: 0, audio_end_ms: 300 });
    assert.deepEqual((await client.next('conversation.item.truncated')).audio_end_ms, 300);
    client.send({ type: 'conversation.item.retrieve', item_id: answer.id });
    const truncated = (await client.next('conversation.item.retrieved')).item.content[0];
    assert.equal(truncated.transcript, '', 'the unheard transcript is removed');
    assert.equal(Buffer.from(truncated.audio, 'base64').length, 300 * 48);
    client.send({ type: 'conversation.item.delete', item_id: 'item_first' });
    assert.equal((await client.next('conversation.item.deleted')).item_id, 'item_first');
    client.send({ type: 'conversation.item.retrieve', item_id: 'item_first', event_id: 'evt_gone' });
    assert.equal((await errorFor(client, 'evt_gone')).error.code, 'item_not_found');
    client.socket.close();
  });

  test('response.cancel stops a response part-way (status cancelled, reason client_cancelled); a second one in the conversation is refused meanwhile', async () => {
    const client = await open('model=sim-echo', { 'x-gatehouse-pace': '200' });
    client.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    client.send(userText(LONG));
    client.send({ type: 'response.create' });
    const created = await client.next('response.created');
    await client.next('response.output_text.delta');
    client.send({ type: 'response.create', event_id: 'evt_second' });
    const busy = await errorFor(client, 'evt_second');
    assert.equal(busy.error.code, 'conversation_already_has_active_response');
    assert.match(busy.error.message, new RegExp(created.response.id));
    client.send({ type: 'response.cancel' });
    const done = await client.next('response.done');
    assert.deepEqual(
      [done.response.status, done.response.status_details],
      ['cancelled', { type: 'cancelled', reason: 'client_cancelled' }],
    );
    const said = client.events
      .filter((e) => e.type === 'response.output_text.delta')
      .map((e) => e.delta)
      .join('');
    assert.ok(said.length > 0 && said.length < LONG.length, 'cut part-way');
    assert.equal(done.response.output[0].status, 'incomplete');
    assert.equal(done.response.output[0].content[0].text, said);
    client.send({ type: 'response.cancel', event_id: 'evt_late' });
    assert.equal((await errorFor(client, 'evt_late')).error.code, 'response_cancel_not_active');
    client.socket.close();
  });

  test('server VAD: the user speaking over a spoken answer cancels it (reason turn_detected) and a new turn begins', async () => {
    const client = await open('model=sim-echo', { 'x-gatehouse-pace': '200' });
    client.send(userText(LONG));
    client.send({ type: 'response.create' });
    await client.next('response.output_audio.delta');
    client.send({ type: 'input_audio_buffer.append', audio: say('stop').toString('base64') });
    const started = await client.next('input_audio_buffer.speech_started');
    const done = await client.next('response.done');
    assert.deepEqual(done.response.status_details, { type: 'cancelled', reason: 'turn_detected' });
    client.send({ type: 'input_audio_buffer.append', audio: silence(600).toString('base64') });
    const stopped = await client.next('input_audio_buffer.speech_stopped');
    assert.equal(stopped.item_id, started.item_id);
    const next = await client.next('response.done');
    assert.equal(next.response.output[0].content[0].transcript.slice(0, 4), 'stop');
    client.socket.close();
  });

  test('VAD off with input transcription: commit transcribes (billed at the transcription price) and no response starts until asked', async () => {
    const client = await open('model=sim-echo');
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['text'],
        audio: { input: { turn_detection: null, transcription: { model: 'whisper-1' } } },
      },
    });
    const updated = await client.next('session.updated');
    assert.deepEqual(
      [updated.session.audio.input.turn_detection, updated.session.audio.input.transcription],
      [null, { model: 'whisper-1' }],
    );
    const speech = Buffer.concat([silence(200), say('the quick brown fox'), silence(200)]);
    client.send({ type: 'input_audio_buffer.append', audio: speech.toString('base64') });
    client.send({ type: 'input_audio_buffer.commit' });
    const committed = await client.next('input_audio_buffer.committed');
    const completed = await client.next('conversation.item.input_audio_transcription.completed');
    assert.equal(completed.item_id, committed.item_id);
    assert.equal(completed.transcript, 'the quick brown fox');
    const deltas = client.events
      .filter((e) => e.type === 'conversation.item.input_audio_transcription.delta')
      .map((e) => e.delta)
      .join('');
    assert.equal(deltas, completed.transcript);
    const seconds = speech.length / 48_000;
    assert.deepEqual(completed.usage, { type: 'duration', seconds: Math.round(seconds * 1000) / 1000 });
    const billed = gw.gateway.context.db
      .prepare("SELECT amount_micros FROM usage_records WHERE endpoint = '/v1/realtime' AND model = 'whisper-1'")
      .get() as { amount_micros: number };
    assert.equal(billed.amount_micros, transcriptionPriceMicros(seconds));
    assert.ok(!client.types().includes('input_audio_buffer.speech_started') && !client.types().includes('response.created'));
    client.send({ type: 'input_audio_buffer.append', audio: silence(200).toString('base64') });
    client.send({ type: 'input_audio_buffer.clear' });
    await client.next('input_audio_buffer.cleared');
    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    assert.equal(done.response.output[0].content[0].text, 'the quick brown fox');
    client.socket.close();
  });

  test('out-of-band responses: conversation none with its own input and metadata, nothing added to the conversation', async () => {
    const client = await open('model=sim-echo');
    client.send(userText('in the conversation'));
    const conversationItem = (await client.next('conversation.item.added')).item;
    const input = [{ type: 'item_reference', id: conversationItem.id }, userText('classify this').item];
    client.send({
      type: 'response.create',
      response: { conversation: 'none', output_modalities: ['text'], metadata: { purpose: 'classify' }, input },
    });
    const done = await client.next('response.done');
    assert.equal(done.response.conversation_id, null);
    assert.deepEqual(done.response.metadata, { purpose: 'classify' });
    assert.equal(done.response.output[0].content[0].text, 'classify this');
    assert.equal(
      client.events.filter((e) => e.type === 'conversation.item.added').length,
      1,
      'the out-of-band answer is not in the conversation',
    );
    client.send({ type: 'conversation.item.retrieve', item_id: done.response.output[0].id, event_id: 'evt_oob' });
    assert.equal((await errorFor(client, 'evt_oob')).error.code, 'item_not_found');
    client.socket.close();
  });

  test('max_output_tokens cuts the answer: status incomplete, reason max_output_tokens', async () => {
    const client = await open();
    client.send(userText('Describe the ocean in detail.'));
    client.send({ type: 'response.create', response: { output_modalities: ['text'], max_output_tokens: 5 } });
    const done = await client.next('response.done');
    assert.deepEqual(
      [done.response.status, done.response.status_details],
      ['incomplete', { type: 'incomplete', reason: 'max_output_tokens' }],
    );
    assert.ok(done.response.usage.output_tokens <= 5);
    client.socket.close();
  });

  test(`a spoken answer stops at the speech limit (${MAX_SPEECH_SECONDS} s): status incomplete, the audio within the limit, the transcript its prefix`, async () => {
    const client = await open('model=sim-echo');
    client.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['audio'], audio: { output: { speed: 0.25 } } },
    });
    await client.next('session.updated');
    // About 2 KB at 220 ms a byte: some 440 s of speech, unbounded before.
    const text = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    client.send(userText(text));
    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    assert.equal(done.response.status, 'incomplete');
    const audio = Buffer.concat(
      client.events.filter((e) => e.type === 'response.output_audio.delta').map((e) => Buffer.from(e.delta, 'base64')),
    );
    const seconds = audio.length / 2 / 24_000;
    assert.ok(seconds <= MAX_SPEECH_SECONDS && seconds > MAX_SPEECH_SECONDS - 5, `${seconds} s of audio`);
    const transcript = client.events.find((e) => e.type === 'response.output_audio_transcript.done')!.transcript as string;
    assert.ok(transcript.length > 0 && text.startsWith(transcript) && transcript.length < text.length);
    client.socket.close();
  });

  test('G.711 μ-law in and out: VAD hears the 8 kHz audio, answers come as one byte per 8 kHz sample', async () => {
    const client = await open('model=sim-realtime');
    const ulaw = { type: 'audio/pcmu' };
    client.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { format: ulaw }, output: { format: ulaw } } } });
    assert.deepEqual((await client.next('session.updated')).session.audio.output.format, ulaw);
    const speech = encodeAudio(pcmSamples(Buffer.concat([say('a phone call'), silence(600)])), 'pcmu');
    client.send({ type: 'input_audio_buffer.append', audio: speech.toString('base64') });
    await client.next('input_audio_buffer.speech_stopped');
    const done = await client.next('response.done');
    const audio = Buffer.concat(
      client.events.filter((e) => e.type === 'response.output_audio.delta').map((e) => Buffer.from(e.delta, 'base64')),
    );
    // One μ-law byte per 8 kHz sample: 8000 bytes a second, 20 audio tokens a second.
    assert.equal(done.response.usage.output_token_details.audio_tokens, Math.ceil((audio.length / 8000) * 20));
    assert.ok(
      decodeAudio(audio, 'pcmu').some((sample) => Math.abs(sample) > 1000),
      'the answer is audible',
    );
    client.socket.close();
  });

  test('a token out of quota is told so when a response is asked, and the socket stays open', async () => {
    // 1000 µ: a response of at most 20 tokens fits (it holds about 400 µ); what is left cannot hold one without a limit.
    const { secret } = gw.gateway.context.tokens.create({ account: 'rt-quota', name: 'tiny', quota: 0.001 });
    const client = await openRaw(`${wsUrl}?model=sim-realtime`, { headers: { authorization: `Bearer ${secret}` } });
    await client.next('session.created');
    client.send(userText('spend a little'));
    client.send({ type: 'response.create', response: { output_modalities: ['text'], max_output_tokens: 20 } });
    await client.next('response.done');
    client.send({ type: 'response.create', event_id: 'evt_broke' });
    const refused = await errorFor(client, 'evt_broke');
    assert.equal(refused.error.code, 'permission_denied');
    assert.match(refused.error.message, /quota/);
    client.send({ type: 'session.update', session: { type: 'realtime', instructions: 'ok' } });
    await client.next('session.updated');
    client.socket.close();
  });
});

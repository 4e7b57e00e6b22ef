// Integration tests of relayed multipart calls (image edits, transcriptions, translations): the form streamed to the channel with its model renamed, called with the official SDK.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { blackPng } from '../helpers/png-files.ts';
import { usageRows } from '../helpers/relay.ts';

describe('relay of multipart endpoints', () => {
  let up: TestGateway;
  let front: TestGateway;
  const channels: TestChannel[] = [];
  const directory = memoryChannels(channels);
  let openai: OpenAI;
  let wav: Buffer;

  /** The newest journal entry of `gw` on `path`, whole. */
  const newest = async (gw: TestGateway, path: string) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const admin = (url: string) => request(`${gw.url}/admin/api${url}`, 'GET', { token: gw.gateway.adminToken });
    const { items } = (await admin(`/journal?path=${encodeURIComponent(path)}`)).body as { items: { id: number }[] };
    assert.ok(items[0], `a journal entry on ${path}`);
    return (await admin(`/journal/${items[0].id}`)).body;
  };
  const lastUsage = () => usageRows(front).at(-1)!;

  /** The model of the newest call the upstream billed. */
  const upstreamModel = () =>
    (up.gateway.context.db.prepare('SELECT model FROM usage_records ORDER BY id DESC LIMIT 1').get() as { model: string }).model;

  before(async () => {
    up = await startGateway();
    front = await startGateway({ channels: directory });
    channels.push({
      name: 'up',
      kind: 'openai',
      baseUrl: `${up.url}/v1`,
      key: up.token,
      models: ['my-image=sim-image', 'my-whisper=sim-whisper'],
    });
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
    const upstream = new OpenAI({ baseURL: `${up.url}/v1`, apiKey: up.token, maxRetries: 0 });
    const speech = await upstream.audio.speech.create({
      model: 'sim-tts',
      voice: 'alloy',
      input: 'Hello from the relay.',
      response_format: 'wav',
    });
    wav = Buffer.from(await speech.arrayBuffer());
  });
  after(async () => {
    await front.stop();
    await up.stop();
  });

  test('an image edit (model after the file) is relayed with the channel key and renamed model, and charged', async () => {
    const before = directory.attempts.length;
    const edited = await openai.images.edit({
      image: await toFile(blackPng(64, 64), 'in.png', { type: 'image/png' }),
      prompt: 'paint it red',
      size: '256x256',
      response_format: 'b64_json',
      model: 'my-image',
    });
    const png = Buffer.from(edited.data![0]!.b64_json!, 'base64');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.deepEqual(
      directory.attempts.slice(before).map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [['up', true]],
    );
    const entry = await newest(up, '/v1/images/edits');
    assert.equal(entry.status, 200);
    assert.equal(entry.account, 'local', "the channel's key (the front's token means nothing upstream)");
    assert.equal(upstreamModel(), 'sim-image', "the upstream's own ledger (its journal does not read a form's model)");
    assert.equal(lastUsage().model, 'my-image');
    assert.equal(lastUsage().endpoint, '/v1/images/edits');
  });

  test('a transcription (model first) and a translation are relayed with the renamed model and billed from the upstream usage', async () => {
    const transcript = await openai.audio.transcriptions.create({
      model: 'my-whisper',
      file: await toFile(wav, 'hello.wav', { type: 'audio/wav' }),
    });
    assert.ok(transcript.text.length > 0);
    const entry = await newest(up, '/v1/audio/transcriptions');
    assert.equal(entry.status, 200);
    assert.equal(entry.account, 'local');
    assert.equal(upstreamModel(), 'sim-whisper');
    const row = lastUsage();
    assert.equal(row.model, 'my-whisper');
    assert.ok(row.input_tokens > 0, JSON.stringify(row));

    const direct = await new OpenAI({ baseURL: `${up.url}/v1`, apiKey: up.token, maxRetries: 0 }).audio.translations.create({
      model: 'sim-whisper',
      file: await toFile(wav, 'hello.wav', { type: 'audio/wav' }),
    });
    const translated = await openai.audio.translations.create({
      model: 'my-whisper',
      file: await toFile(wav, 'hello.wav', { type: 'audio/wav' }),
    });
    assert.equal(translated.text, direct.text, "the upstream's answer as it is");
    assert.equal((await newest(up, '/v1/audio/translations')).account, 'local');
    assert.equal(upstreamModel(), 'sim-whisper');
  });

  test('a relayed file over the per-file limit is refused with the same 413 as a simulated one', async () => {
    const big = Buffer.alloc(25 * 1024 * 1024 + 1);
    const form = new FormData();
    form.append('model', 'my-whisper');
    form.append('file', new Blob([big], { type: 'audio/wav' }), 'big.wav');
    const response = await fetch(`${front.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${front.token}` },
      body: form,
    });
    assert.equal(response.status, 413);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /larger than 26214400 bytes/);
  });

  test('an unrouted model is still simulated', async () => {
    const before = directory.attempts.length;
    const transcript = await openai.audio.transcriptions.create({
      model: 'sim-whisper',
      file: await toFile(wav, 'hello.wav', { type: 'audio/wav' }),
    });
    assert.ok(transcript.text.length > 0);
    assert.equal(directory.attempts.length, before);
  });
});

// Usage an upstream reports for a relayed transcription, a translated embedding or a platform 3D task is not believed past what the call can hold: a transcription is charged at most the seconds its upload can carry, an embedding the estimate, a 3D task's impossible counts (negative, huge) nothing, and the journal says why; a 3D task's failure reason is kept bounded.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GoogleGenAI } from '@google/genai';
import OpenAI, { toFile } from 'openai';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { MAX_TRANSCRIPTION_SECONDS } from '../../electron/gateway/services/media-limits.ts';
import { transcriptionPriceMicros } from '../../electron/gateway/services/pricing.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { accountEntry } from '../helpers/account-entry.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { silentWav16 } from '../helpers/wav-files.ts';

/** A new token of its own account on `gw`. */
async function tokenOf(gw: TestGateway, account: string): Promise<string> {
  const created = await request(`${gw.url}/admin/api/tokens`, 'POST', { token: gw.gateway.adminToken, body: { account } });
  return created.body.secret as string;
}

describe('a relayed transcription and a translated embedding report impossible usage', () => {
  let upstream: HostileUpstream;
  let gw: TestGateway;

  before(async () => {
    upstream = await hostileUpstream((received, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // An honest upstream (the model `whisper-honest`) heard 150 s; another claims 1e12 s.
      if (received.url.endsWith('/audio/transcriptions'))
        response.end(
          received.body.includes('whisper-honest')
            ? '{"text":"a long talk","usage":{"type":"duration","seconds":150}}'
            : received.body.includes('whisper-silent')
              ? '{"text":"no usage said"}'
              : '{"text":"hello there","usage":{"type":"duration","seconds":1e12}}',
        );
      else
        response.end('{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.25,0.5]}],"usage":{"prompt_tokens":1e300}}');
    });
    gw = await gatewayBefore(upstream, 'openai');
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  test('a transcription reporting 1e12 seconds is charged at most the seconds its upload can hold, and the journal says so', async () => {
    const client = new OpenAI({ apiKey: await tokenOf(gw, 'hear'), baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const file = await toFile(silentWav16(8000, 1), 'one-second.wav');
    const transcript = await client.audio.transcriptions.create({ file, model: 'whisper-up' });
    assert.equal(transcript.text, 'hello there');
    const entry = await accountEntry(gw, 'hear');
    const micros = Math.round(entry.usage.cost * 1_000_000);
    assert.ok(micros > 0, 'the transcription is charged');
    // The upload is about 16 KB: it holds at most about 17 s at the reservation's 1,000 bytes a second.
    assert.ok(micros <= transcriptionPriceMicros(20), `charged ${micros} µ, more than 20 s of audio`);
    assert.ok(micros < transcriptionPriceMicros(MAX_TRANSCRIPTION_SECONDS));
    assert.ok(
      (entry.notes as string[]).some((note) => /^Upstream audio seconds out of bounds \(1000000000000\)/.test(note)),
      JSON.stringify(entry.notes),
    );
  });

  test('an honest long transcription of a low-rate codec (100 KB heard as 150 s, past what the hold reserved) is charged its 150 s', async () => {
    const client = new OpenAI({ apiKey: await tokenOf(gw, 'honest'), baseURL: `${gw.url}/v1`, maxRetries: 0 });
    // Opus at 6 kbit/s: 150 s take about 112 KB; the quota's hold assumes 8 kbit/s (about 101 s for this upload).
    const file = await toFile(Buffer.alloc(100_000, 1), 'talk.ogg');
    assert.equal((await client.audio.transcriptions.create({ file, model: 'whisper-honest' })).text, 'a long talk');
    const entry = await accountEntry(gw, 'honest');
    assert.equal(Math.round(entry.usage.cost * 1_000_000), transcriptionPriceMicros(150));
    assert.equal(entry.notes, undefined);
  });

  test('a transcription whose answer reports no usage at all is charged nothing for its audio, with no note, as before', async () => {
    const client = new OpenAI({ apiKey: await tokenOf(gw, 'silent'), baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const file = await toFile(silentWav16(8000, 1), 'one-second.wav');
    assert.equal((await client.audio.transcriptions.create({ file, model: 'whisper-silent' })).text, 'no usage said');
    const entry = await accountEntry(gw, 'silent');
    assert.equal(entry.usage.inputTokens, 0);
    assert.equal(entry.usage.cost, 0);
    assert.equal(entry.notes, undefined);
  });

  test('a Gemini embedding through an OpenAI channel reporting 1e300 prompt tokens is charged the estimate, and the journal says so', async () => {
    const client = new GoogleGenAI({ apiKey: await tokenOf(gw, 'embed'), httpOptions: { baseUrl: gw.url } });
    const answer = await client.models.embedContent({ model: 'emb-up', contents: 'bound me' });
    assert.deepEqual(answer.embeddings?.[0]?.values, [0.25, 0.5]);
    const entry = await accountEntry(gw, 'embed');
    assert.ok(entry.usage.inputTokens > 0 && entry.usage.inputTokens <= 8, `charged ${entry.usage.inputTokens} input tokens`);
    assert.deepEqual(entry.notes, ['Upstream usage out of bounds (input tokens 1e+300); charged the estimate.']);
  });
});

describe('a platform 3D task reporting impossible usage', () => {
  const dirs = tempDirs();
  let upstream: HostileUpstream;
  let gw: TestGateway;

  before(async () => {
    const task = (status: string) =>
      JSON.stringify({
        task_id: 'up-task-1',
        status,
        progress: status === 'SUCCESS' ? '100%' : '0%',
        files: status === 'SUCCESS' ? [{ url: '/files/up-task-1.glb', format: 'glb' }] : [],
        usage: { input_tokens: -1_000_000_000, output_tokens: 1e308, total_tokens: 0 },
        finish_time: 0,
        failure_reason: null,
      });
    upstream = await hostileUpstream((received, response) => {
      if (received.url.startsWith('/files/'))
        return void response.writeHead(200, { 'content-type': 'model/gltf-binary' }).end('glTF bytes');
      response.writeHead(200, { 'content-type': 'application/json' });
      // A task asked to fail long ends in a failure whose reason is a megabyte.
      if (received.body.includes('fail long') || received.url.endsWith('/up-task-long')) {
        const failed = { task_id: 'up-task-long', status: received.method === 'POST' ? 'SUBMITTED' : 'FAILURE', progress: '0%', files: [] };
        return void response.end(JSON.stringify({ ...failed, usage: {}, finish_time: 0, failure_reason: 'why '.repeat(250_000) }));
      }
      response.end(task(received.method === 'POST' ? 'SUBMITTED' : 'SUCCESS'));
    });
    const dataDir = dirs.fresh();
    gw = await startGateway({ dataDir, secrets: openFileStore(dataDir), refreshIntervalMs: 3_600_000 });
    const added = await request(`${gw.url}/admin/api/channels`, 'POST', {
      token: gw.gateway.adminToken,
      body: { name: 'platform', kind: 'platform', base_url: upstream.url, models: 'p-3d', key: 'platform-key-0123456789' },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
    dirs.removeAll();
  });

  test('a negative input count and an output count of 1e308 are not believed: the task is charged no tokens, and no credit', async () => {
    const auth = { token: gw.token };
    const created = await request(`${gw.url}/v1/3d/generations`, 'POST', { ...auth, body: { model: 'p-3d', prompt: 'a teapot' } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const done = await request(`${gw.url}/v1/3d/generations/${created.body.task_id}`, 'GET', auth);
    assert.equal(done.body.status, 'SUCCESS', JSON.stringify(done.body));
    assert.deepEqual(done.body.usage, { input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    assert.ok(Number(done.body.amount) >= 0 && Number.isFinite(Number(done.body.amount)), `amount ${done.body.amount}`);
    const tokens = (await request(`${gw.url}/admin/api/tokens`, 'GET', { token: gw.gateway.adminToken })).body as { used: number }[];
    assert.ok(
      tokens.every((token) => token.used >= 0 && Number.isFinite(token.used)),
      JSON.stringify(tokens.map((token) => token.used)),
    );
  });

  test('a failure reason of a megabyte is kept cut to 1,000 characters', async () => {
    const auth = { token: gw.token };
    const created = await request(`${gw.url}/v1/3d/generations`, 'POST', { ...auth, body: { model: 'p-3d', prompt: 'fail long' } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const failed = await request(`${gw.url}/v1/3d/generations/${created.body.task_id}`, 'GET', auth);
    assert.equal(failed.body.status, 'FAILURE');
    assert.equal(failed.body.failure_reason.length, 1000);
    assert.ok(failed.body.failure_reason.startsWith('why why') && failed.body.failure_reason.endsWith('…'));
  });
});

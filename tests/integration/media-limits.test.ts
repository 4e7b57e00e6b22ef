// Integration tests of the limits on image and audio work through the official openai SDK: clear 400/413s that store and bill nothing, a 503 when the workers are full, and /healthz answering while heavy media work runs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI, { APIError, toFile } from 'openai';
import { mp3File } from '../../electron/gateway/providers/simulate/mp3-file.ts';
import { speak, VOICE_RATE } from '../../electron/gateway/providers/simulate/fsk-voice.ts';
import { generateImage } from '../../electron/gateway/providers/simulate/images.ts';
import { encodePng } from '../../electron/gateway/providers/simulate/png.ts';
import {
  MAX_INPUT_IMAGE_PIXELS,
  MAX_INPUT_IMAGES,
  MAX_INPUT_PIXELS_PER_REQUEST,
  MAX_OUTPUT_PIXELS_PER_REQUEST,
  MAX_TRANSCRIPTION_SECONDS,
  MAX_UPLOAD_FILE_BYTES,
} from '../../electron/gateway/services/media-limits.ts';
import { MAX_SPEECH_SECONDS } from '../../electron/gateway/providers/simulate/speech-limit.ts';
import { startGateway } from '../helpers/gateway.ts';
import { blackPng } from '../helpers/png-files.ts';
import { silentWav } from '../helpers/wav-files.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

/** The APIError a call fails with (and fails the test when it succeeds). */
async function failure(call: Promise<unknown>): Promise<APIError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof APIError, String(error));
    return error;
  }
  assert.fail('the call succeeded');
}

describe('media limits', () => {
  const suite = useOpenAIGateway();
  const usageRows = () => (suite.gw.gateway.context.db.prepare('SELECT COUNT(*) AS n FROM usage_records').get() as { n: number }).n;
  const png = (bytes: Buffer, name = 'in.png') => toFile(bytes, name, { type: 'image/png' });

  test(`an edit with more than ${MAX_INPUT_IMAGES} images is a 400 naming the limit, billed nothing`, async () => {
    const before = usageRows();
    const image = await Promise.all(Array.from({ length: MAX_INPUT_IMAGES + 1 }, (_, i) => png(blackPng(64, 64), `in${i}.png`)));
    const error = await failure(suite.client.images.edit({ model: 'gpt-image-1', image, prompt: 'many', response_format: 'b64_json' }));
    assert.equal(error.status, 400);
    assert.equal((error.error as any).param, 'image');
    assert.match(error.message, new RegExp(`at most ${MAX_INPUT_IMAGES} per edit`));
    assert.equal(usageRows(), before);
  });

  test('a small PNG that decodes to 4096x4096 pixels is a 413 from its header alone', async () => {
    const before = usageRows();
    const bomb = blackPng(4096, 4096);
    assert.ok(bomb.length < 100_000, `the PNG is small (${bomb.length} bytes)`);
    const error = await failure(
      suite.client.images.edit({ model: 'gpt-image-1', image: await png(bomb), prompt: 'big', n: 10, response_format: 'b64_json' }),
    );
    assert.equal(error.status, 413);
    assert.equal((error.error as any).param, 'image');
    assert.match(error.message, new RegExp(`4096x4096 = 16777216 pixels; at most ${MAX_INPUT_IMAGE_PIXELS} per image`));
    assert.equal(usageRows(), before);
  });

  test('input images over the per-edit pixel total are a 413', async () => {
    const side = Math.sqrt(MAX_INPUT_IMAGE_PIXELS);
    const count = MAX_INPUT_PIXELS_PER_REQUEST / MAX_INPUT_IMAGE_PIXELS + 1;
    const image = await Promise.all(Array.from({ length: count }, (_, i) => png(blackPng(side, side), `in${i}.png`)));
    const error = await failure(suite.client.images.edit({ model: 'gpt-image-1', image, prompt: 'many big', response_format: 'b64_json' }));
    assert.equal(error.status, 413);
    assert.match(error.message, new RegExp(`at most ${MAX_INPUT_PIXELS_PER_REQUEST} per edit`));
  });

  test('n × size over the output pixel limit is a 400 naming both, for generations and edits', async () => {
    const before = usageRows();
    const generation = await failure(
      suite.client.images.generate({
        model: 'gpt-image-1',
        prompt: 'huge',
        n: 10,
        size: '2048x2048' as never,
        response_format: 'b64_json',
      }),
    );
    assert.equal(generation.status, 400);
    assert.equal((generation.error as any).param, 'n');
    assert.match(generation.message, new RegExp(`n=10 images of 2048x2048 are 41943040 pixels; at most ${MAX_OUTPUT_PIXELS_PER_REQUEST}`));
    const image = await png(encodePng({ width: 64, height: 64, rgba: new Uint8Array(64 * 64 * 4) }));
    const edit = await failure(
      suite.client.images.edit({
        model: 'gpt-image-1',
        image,
        prompt: 'huge',
        n: 5,
        size: '2048x2048' as never,
        response_format: 'b64_json',
      }),
    );
    assert.equal(edit.status, 400);
    assert.match(edit.message, /n=5 images of 2048x2048/);
    assert.equal(usageRows(), before);
  });

  test(`speech longer than ${MAX_SPEECH_SECONDS} s (a 12 KB input) is a 400 naming the duration and the limit`, async () => {
    const before = usageRows();
    const input = '€'.repeat(4096);
    const error = await failure(suite.client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input }));
    assert.equal(error.status, 400);
    assert.equal((error.error as any).param, 'input');
    assert.match(error.message, new RegExp(`would last \\d+ s at speed 1; at most ${MAX_SPEECH_SECONDS} s`));
    const slow = await failure(
      suite.client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'a'.repeat(2000), speed: 0.25 }),
    );
    assert.match(slow.message, /at speed 0.25/);
    assert.equal(usageRows(), before);
  });

  test('a WAV declaring a 1 Hz sample rate is a 400, not billed as hours of audio', async () => {
    const before = usageRows();
    const file = await toFile(silentWav(1, 16, 4800), 'slow.wav', { type: 'audio/wav' });
    const error = await failure(suite.client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file }));
    assert.equal(error.status, 400);
    assert.equal((error.error as any).param, 'file');
    assert.match(error.message, /sample rate of 1 Hz; accepted: 8000 to 192000 Hz/);
    assert.equal(usageRows(), before);
  });

  test(`audio longer than ${MAX_TRANSCRIPTION_SECONDS} s is a 400; a WAV is billed by its decoded duration`, async () => {
    const before = usageRows();
    const long = await toFile(silentWav(8000, 8, 8000 * (MAX_TRANSCRIPTION_SECONDS + 100)), 'long.wav', { type: 'audio/wav' });
    const error = await failure(suite.client.audio.translations.create({ model: 'whisper-1', file: long }));
    assert.equal(error.status, 400);
    assert.match(error.message, new RegExp(`lasts ${MAX_TRANSCRIPTION_SECONDS + 100} s; at most ${MAX_TRANSCRIPTION_SECONDS} s`));
    assert.equal(usageRows(), before);
    // 90 s of 8-bit audio at 8 kHz: billed 90 s ($0.006 a minute by the started second), not an estimate from its bytes.
    const short = await toFile(silentWav(8000, 8, 8000 * 90), 'short.wav', { type: 'audio/wav' });
    const result = (await suite.client.audio.transcriptions.create({
      model: 'gpt-4o-transcribe',
      file: short,
      response_format: 'verbose_json',
    })) as { duration: number };
    assert.equal(result.duration, 90);
    const charged = suite.gw.gateway.context.db.prepare('SELECT amount_micros FROM usage_records ORDER BY id DESC LIMIT 1').get() as {
      amount_micros: number;
    };
    assert.equal(charged.amount_micros, 90 * 100);
  });

  test(`a file over ${MAX_UPLOAD_FILE_BYTES} bytes is a 413 naming the limit and the field`, async () => {
    const before = usageRows();
    const file = await toFile(Buffer.alloc(MAX_UPLOAD_FILE_BYTES + 1), 'big.wav', { type: 'audio/wav' });
    const error = await failure(suite.client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file }));
    assert.equal(error.status, 413);
    assert.equal((error.error as any).param, 'file');
    assert.match(error.message, new RegExp(`larger than ${MAX_UPLOAD_FILE_BYTES} bytes, the limit per file`));
    assert.equal(usageRows(), before);
  });
});

describe('media work runs off the event loop', () => {
  const suite = useOpenAIGateway();

  /** Runs `heavy` while polling /healthz; returns the heavy call's duration and the slowest /healthz answer meanwhile. */
  async function pollWhile(heavy: () => Promise<unknown>) {
    let done = false;
    let slowest = 0;
    let answered = 0;
    const started = performance.now();
    const call = heavy().finally(() => (done = true));
    while (!done) {
      const sent = performance.now();
      const response = await fetch(`${suite.gw.url}/healthz`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      if (!done) answered++;
      slowest = Math.max(slowest, performance.now() - sent);
    }
    await call;
    return { duration: performance.now() - started, slowest, answered };
  }

  test('/healthz answers promptly while the longest allowed speech is made', async () => {
    const input = 'a'.repeat(4096);
    const { duration, slowest, answered } = await pollWhile(() =>
      suite.client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'mp3' }).then((r) => r.arrayBuffer()),
    );
    assert.ok(answered >= 3, `only ${answered} /healthz answers during ${Math.round(duration)} ms of speech`);
    assert.ok(slowest < duration / 2, `the slowest /healthz took ${Math.round(slowest)} ms of the speech's ${Math.round(duration)} ms`);
  });

  test('/healthz answers promptly while the largest allowed image generation runs', async () => {
    const { duration, slowest, answered } = await pollWhile(() =>
      suite.client.images.generate({
        model: 'gpt-image-1',
        prompt: 'largest',
        n: 4,
        size: '2048x2048' as never,
        response_format: 'b64_json',
      }),
    );
    assert.ok(answered >= 3, `only ${answered} /healthz answers during ${Math.round(duration)} ms of images`);
    assert.ok(slowest < duration / 2, `the slowest /healthz took ${Math.round(slowest)} ms of the generation's ${Math.round(duration)} ms`);
  });

  test('results are byte-identical to the same work done in-process, as before the move to workers', async () => {
    const input = 'same bytes';
    const speech = await suite.client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'mp3' });
    assert.deepEqual(Buffer.from(await speech.arrayBuffer()), mp3File(speak(input), VOICE_RATE, input));
    const images = await suite.client.images.generate({
      model: 'gpt-image-1',
      prompt: 'same pixels',
      n: 2,
      size: '256x256',
      response_format: 'b64_json',
    });
    images.data!.forEach((image, i) =>
      assert.deepEqual(Buffer.from(image.b64_json!, 'base64'), encodePng(generateImage('same pixels', 256, 256, i))),
    );
  });
});

test('with every worker busy and the queue full, a media call is a 503 in the OpenAI shape', async () => {
  const gw = await startGateway({ media: { workers: 1, queue: 0 } });
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const speech = () =>
      client.audio.speech
        .create({ model: 'tts-1', voice: 'alloy', input: 'a'.repeat(4096), response_format: 'mp3' })
        .then((r) => r.arrayBuffer());
    const outcomes = await Promise.allSettled([speech(), speech()]);
    const refused = outcomes
      .filter((outcome) => outcome.status === 'rejected')
      .map((outcome) => (outcome as PromiseRejectedResult).reason as APIError);
    assert.equal(refused.length, 1, 'one call runs, the other is refused');
    assert.equal(refused[0]!.status, 503);
    assert.equal((refused[0]!.error as any).type, 'server_error');
    assert.match(refused[0]!.message, /busy: 1 image\/audio jobs are running and 0 are waiting \(at most 0\)/);
  } finally {
    await gw.stop();
  }
});

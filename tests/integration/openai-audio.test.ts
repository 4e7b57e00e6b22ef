// Integration tests of speech and transcription through the official openai SDK: real WAV/MP3/PCM, the exact round trip, every transcript format, streaming and billing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

/** The format fields of a WAV file's `fmt ` chunk and the byte length of its `data` chunk, read independently of the gateway's code. */
function readWavHeader(bytes: Buffer) {
  assert.equal(bytes.toString('ascii', 0, 4), 'RIFF');
  assert.equal(bytes.toString('ascii', 8, 12), 'WAVE');
  assert.equal(bytes.readUInt32LE(4), bytes.length - 8, 'RIFF size');
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      assert.equal(bytes.readUInt16LE(offset + 8), 1, 'PCM format tag');
      format = { channels: bytes.readUInt16LE(offset + 10), rate: bytes.readUInt32LE(offset + 12), bits: bytes.readUInt16LE(offset + 22) };
    } else if (id === 'data') {
      assert.ok(format, 'fmt chunk before data');
      return { ...format, dataBytes: size, seconds: size / (format.rate * format.channels * (format.bits / 8)) };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** MPEG audio frames after any ID3v2 tag: count, sample rate and the duration they add up to. */
function readMp3Frames(bytes: Buffer) {
  let offset = 0;
  if (bytes.toString('ascii', 0, 3) === 'ID3') {
    const size = (bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!;
    offset = 10 + size;
  }
  const rates: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
  const kbps: Record<number, number[]> = {
    3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  };
  let frames = 0;
  let rate = 0;
  let seconds = 0;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff && (bytes[offset + 1]! & 0xe0) === 0xe0) {
    const version = (bytes[offset + 1]! >> 3) & 3;
    assert.equal((bytes[offset + 1]! >> 1) & 3, 1, 'Layer III');
    rate = rates[version]![(bytes[offset + 2]! >> 2) & 3]!;
    const bitrate = kbps[version === 3 ? 3 : 2]![bytes[offset + 2]! >> 4]! * 1000;
    const padding = (bytes[offset + 2]! >> 1) & 1;
    const samplesPerFrame = version === 3 ? 1152 : 576;
    const length = Math.floor(((samplesPerFrame / 8) * bitrate) / rate) + padding;
    assert.ok(length > 4);
    frames++;
    seconds += samplesPerFrame / rate;
    offset += length;
  }
  return { frames, rate, seconds, end: offset };
}

describe('audio', () => {
  const suite = useOpenAIGateway();

  const speech = async (input: string, response_format: 'wav' | 'mp3' | 'pcm', extra: { speed?: number } = {}) => {
    const response = await suite.client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input, response_format, ...extra });
    return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const transcribe = (bytes: Buffer, name: string, type: string) =>
    toFile(bytes, name, { type }).then((file) => suite.client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file }));

  test('speech as WAV: a 16-bit mono PCM file whose duration grows with the text', async () => {
    const short = await speech('Hi.', 'wav');
    const long = await speech('A much longer sentence, spoken slowly and clearly to the end.', 'wav');
    assert.match(short.type ?? '', /^audio\/(wav|x-wav|wave)/);
    const a = readWavHeader(short.bytes);
    const b = readWavHeader(long.bytes);
    assert.deepEqual([a.channels, a.bits, a.rate], [1, 16, 24000]);
    assert.ok(a.seconds > 0.05, `short speech lasts ${a.seconds}s`);
    assert.ok(b.seconds > a.seconds * 5, `long ${b.seconds}s vs short ${a.seconds}s`);
  });

  test('speech as MP3: MPEG frames after the tag, lasting about as long as the WAV', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const mp3 = await speech(text, 'mp3');
    assert.equal(mp3.type, 'audio/mpeg');
    const frames = readMp3Frames(mp3.bytes);
    assert.ok(frames.frames > 10, `${frames.frames} frames`);
    assert.equal(frames.end, mp3.bytes.length, 'the file is whole frames to its end');
    const wav = readWavHeader((await speech(text, 'wav')).bytes);
    assert.ok(Math.abs(frames.seconds - wav.seconds) < 0.2, `mp3 ${frames.seconds}s vs wav ${wav.seconds}s`);
  });

  test('speech as PCM: raw 16-bit samples at 24 kHz, as many bytes as the WAV has data', async () => {
    const text = 'Raw samples, please.';
    const pcm = await speech(text, 'pcm');
    assert.match(pcm.type ?? '', /^audio\/(pcm|L16)/);
    assert.equal(pcm.bytes.length % 2, 0);
    assert.equal(pcm.bytes.length, readWavHeader((await speech(text, 'wav')).bytes).dataBytes);
  });

  test('a faster speed gives shorter audio', async () => {
    const text = 'Speed changes how long this takes.';
    const normal = readWavHeader((await speech(text, 'wav')).bytes).seconds;
    const fast = readWavHeader((await speech(text, 'wav', { speed: 2 })).bytes).seconds;
    assert.ok(fast < normal * 0.75, `speed 2: ${fast}s vs ${normal}s`);
  });

  test('speech errors: unsupported format, missing input, too long input, bad speed', async () => {
    for (const [body, param] of [
      [{ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'opus' }, 'response_format'],
      [{ model: 'tts-1', voice: 'alloy' }, 'input'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(4097) }, 'input'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x', speed: 5 }, 'speed'],
    ] as const) {
      const error = await suite.client.audio.speech.create(body as never).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.BadRequestError, JSON.stringify(body).slice(0, 80));
      assert.equal(error.param, param);
    }
    const error = await suite.client.audio.speech
      .create({ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'flac' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.match(error.message, /mp3/);
  });

  test('round trip: our speech transcribes back to its exact text as WAV, MP3 and PCM', async () => {
    const text = 'Grüße aus dem Gatehouse — 42 tests, "quotes" & emoji 🎧 included!';
    for (const [format, type] of [
      ['wav', 'audio/wav'],
      ['mp3', 'audio/mpeg'],
      ['pcm', 'audio/pcm'],
    ] as const) {
      const audio = await speech(text, format);
      const result = await transcribe(audio.bytes, `speech.${format}`, type);
      assert.equal(result.text, text, format);
    }
    for (const speed of [0.25, 4]) {
      const audio = await speech(text, 'pcm', { speed });
      assert.equal((await transcribe(audio.bytes, 'speech.pcm', 'audio/pcm')).text, text, `pcm at speed ${speed}`);
    }
  });

  test('audio the gateway did not make gets a stable transcript derived from its bytes', async () => {
    const noise = Buffer.alloc(48_000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const a = await transcribe(noise, 'noise.wav', 'audio/wav');
    const b = await transcribe(noise, 'noise.wav', 'audio/wav');
    const other = await transcribe(Buffer.concat([noise, Buffer.from([1, 2])]), 'noise.wav', 'audio/wav');
    assert.ok(a.text.length > 10);
    assert.equal(a.text, b.text);
    assert.notEqual(a.text, other.text);
  });

  test('each transcript format: text, verbose_json with segments, srt and vtt cues', async () => {
    const text = 'First sentence here. Second one follows! And a third?';
    const audio = (await speech(text, 'wav')).bytes;
    const file = () => toFile(audio, 'speech.wav', { type: 'audio/wav' });
    const model = 'whisper-1';

    const plain = await suite.client.audio.transcriptions.create({ model, file: await file(), response_format: 'text' });
    assert.equal(String(plain).trim(), text);

    const verbose = await suite.client.audio.transcriptions.create({ model, file: await file(), response_format: 'verbose_json' });
    assert.equal(verbose.text, text);
    assert.equal(typeof verbose.language, 'string');
    assert.ok(verbose.duration > 0);
    const segments = verbose.segments!;
    assert.equal(segments.map((s) => s.text.trim()).join(' '), text);
    assert.equal(segments[0]!.start, 0);
    for (let i = 1; i < segments.length; i++) assert.ok(segments[i]!.start >= segments[i - 1]!.end - 1e-9);
    assert.ok(Math.abs(segments.at(-1)!.end - verbose.duration) < 0.01);

    const timed = await suite.client.audio.transcriptions.create({
      model,
      file: await file(),
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    assert.equal(timed.segments, undefined, 'only the asked granularity');
    assert.deepEqual(
      timed.words!.map((w) => w.word),
      text.split(' '),
    );
    for (let i = 1; i < timed.words!.length; i++) assert.ok(timed.words![i]!.start >= timed.words![i - 1]!.end - 1e-9);
    assert.ok(Math.abs(timed.words!.at(-1)!.end - timed.duration) < 0.01);
    const both = await suite.client.audio.transcriptions.create({
      model,
      file: await file(),
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    assert.equal(both.segments!.length, segments.length);
    assert.equal(both.words!.length, timed.words!.length);

    const srt = String(await suite.client.audio.transcriptions.create({ model, file: await file(), response_format: 'srt' }));
    const srtCues = srt.trim().split(/\n\n/);
    assert.equal(srtCues.length, segments.length);
    srtCues.forEach((cue, i) => {
      const lines = cue.split('\n');
      assert.equal(lines[0], String(i + 1));
      assert.match(lines[1]!, /^\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}$/);
      assert.equal(lines[2]!.trim(), segments[i]!.text.trim());
    });

    const vtt = String(await suite.client.audio.transcriptions.create({ model, file: await file(), response_format: 'vtt' }));
    assert.match(vtt, /^WEBVTT\n\n/);
    const vttCues = vtt.slice('WEBVTT\n\n'.length).trim().split(/\n\n/);
    assert.equal(vttCues.length, segments.length);
    for (const cue of vttCues) assert.match(cue.split('\n')[0]!, /^\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}$/);

    const bad = await suite.client.audio.transcriptions
      .create({ model, file: await file(), response_format: 'xml' as never })
      .catch((e: unknown) => e);
    assert.ok(bad instanceof OpenAI.BadRequestError);
    assert.equal(bad.param, 'response_format');
  });

  test('streamed transcription: text deltas that add up to the done event', async () => {
    const text = 'Streaming works, one piece at a time.';
    const audio = (await speech(text, 'pcm')).bytes;
    const stream = await suite.client.audio.transcriptions.create({
      model: 'gpt-4o-transcribe',
      file: await toFile(audio, 'a.pcm', { type: 'audio/pcm' }),
      stream: true,
    });
    const types: string[] = [];
    let joined = '';
    let done = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'transcript.text.delta') joined += event.delta;
      if (event.type === 'transcript.text.done') {
        done = event.text;
        assert.equal(event.usage?.type, 'tokens');
        assert.equal(event.usage!.total_tokens, event.usage!.input_tokens + event.usage!.output_tokens);
        assert.ok(event.usage!.input_tokens > 0 && event.usage!.output_tokens > 0);
      }
    }
    assert.ok(types.filter((t) => t === 'transcript.text.delta').length > 1);
    assert.equal(types.at(-1), 'transcript.text.done');
    assert.equal(joined, text);
    assert.equal(done, text);
  });

  test('speech is billed per character and transcription per minute', async () => {
    const rows = () =>
      suite.gw.gateway.context.db
        .prepare("SELECT endpoint, model, amount_micros FROM usage_records WHERE endpoint LIKE '/v1/audio/%' ORDER BY id")
        .all() as {
        endpoint: string;
        model: string;
        amount_micros: number;
      }[];
    const before = rows().length;
    const text = 'Billing check.';
    const audio = await speech(text, 'wav');
    await transcribe(audio.bytes, 'b.wav', 'audio/wav');
    const added = rows().slice(before);
    assert.deepEqual(
      added.map((row) => [row.endpoint, row.model]),
      [
        ['/v1/audio/speech', 'gpt-4o-mini-tts'],
        ['/v1/audio/transcriptions', 'gpt-4o-transcribe'],
      ],
    );
    // $15 per million characters; $0.006 per minute, by the started second.
    assert.equal(added[0]!.amount_micros, text.length * 15);
    assert.equal(added[1]!.amount_micros, Math.ceil(readWavHeader(audio.bytes).seconds) * 100);
  });

  test('translations return the transcript, in every format', async () => {
    const text = 'Translated text stays the same.';
    const audio = (await speech(text, 'wav')).bytes;
    const file = await toFile(audio, 't.wav', { type: 'audio/wav' });
    const json = await suite.client.audio.translations.create({ model: 'whisper-1', file });
    assert.equal(json.text, text);
    const verbose = (await suite.client.audio.translations.create({
      model: 'whisper-1',
      file: await toFile(audio, 't.wav'),
      response_format: 'verbose_json',
    })) as OpenAI.Audio.TranslationVerbose;
    assert.equal(verbose.text, text);
    assert.equal(verbose.language, 'english');
    const srt = String(
      await suite.client.audio.translations.create({ model: 'whisper-1', file: await toFile(audio, 't.wav'), response_format: 'srt' }),
    );
    assert.match(srt, /^1\n00:00:00,000 --> /);
  });
});

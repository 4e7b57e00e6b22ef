// Unit tests of the audio containers: WAV with its LIST/INFO text, MP3 tag and frame duration, and transcription by container.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mp3Duration, parseWav, readMp3Text, wavFile } from '../../../electron/gateway/providers/simulate/audio-containers.ts';
import { mp3File } from '../../../electron/gateway/providers/simulate/mp3-file.ts';
import { readWavFormat } from '../../../electron/gateway/protocols/media/wav-format.ts';
import { synthesizeSpeech, VOICE_RATE } from '../../../electron/gateway/providers/simulate/fsk-voice.ts';
import { transcribe } from '../../../electron/gateway/providers/simulate/transcribe.ts';

test('a WAV keeps its samples, rate and the text of its LIST/INFO chunk', () => {
  const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
  const wav = parseWav(wavFile(samples, 16_000, 'Odd-length text'))!;
  assert.deepEqual([...wav.samples], [...samples]);
  assert.equal(wav.rate, 16_000);
  assert.equal(wav.text, 'Odd-length text');
  assert.equal(parseWav(wavFile(samples, 16_000))!.text, undefined);
  assert.equal(parseWav(Buffer.from('not a wav at all')), undefined);
});

test('a WAV whose signal cannot carry the text (too low a rate) is still transcribed from its INFO chunk', () => {
  const wav = wavFile(new Int16Array(8000), 8000, 'From the INFO chunk.');
  assert.equal(transcribe(wav, 'x.wav').text, 'From the INFO chunk.');
  assert.equal(transcribe(wav, 'x.wav').duration, 1);
});

test('an MP3 carries the text in its ID3 tag and lasts as long as its samples', () => {
  const samples = synthesizeSpeech('Tagged text é');
  const mp3 = mp3File(samples, VOICE_RATE, 'Tagged text é');
  assert.equal(readMp3Text(mp3), 'Tagged text é');
  const seconds = samples.length / VOICE_RATE;
  assert.ok(Math.abs(mp3Duration(mp3) - seconds) < 0.15, `${mp3Duration(mp3)} vs ${seconds}`);
  assert.equal(mp3Duration(Buffer.from('no frames')), 0);
});

test('the WAV format is read from its headers: rate, channels, bits and the seconds its data holds', () => {
  const wav = wavFile(synthesizeSpeech('timed'), VOICE_RATE, 'timed');
  const format = readWavFormat(wav)!;
  assert.deepEqual([format.rate, format.channels, format.bits], [VOICE_RATE, 1, 16]);
  assert.equal(format.seconds, parseWav(wav)!.samples.length / VOICE_RATE);
  // A header declaring 1 Hz is read as it is (the route refuses it); an 8-bit WAV is timed too.
  const slow = Buffer.from(wav);
  slow.writeUInt32LE(1, 24);
  assert.equal(readWavFormat(slow)!.rate, 1);
  const eightBit = Buffer.from(wav);
  eightBit.writeUInt16LE(8, 34);
  assert.equal(readWavFormat(eightBit)!.seconds, eightBit.readUInt32LE(40) / VOICE_RATE, 'one byte per sample');
  assert.equal(transcribe(eightBit, 'x.wav').duration, readWavFormat(eightBit)!.seconds, 'billed by that duration');
  assert.equal(readWavFormat(Buffer.from('RIFF....WAVE')), undefined);
  assert.equal(readWavFormat(Buffer.from('not a wav')), undefined);
});

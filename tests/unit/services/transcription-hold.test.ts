// Unit tests of what a transcription reserves: a WAV by its header's duration, other audio by its bytes at the lowest bit rate, never past the longest transcription.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TRANSCRIPTION_SECONDS } from '../../../electron/gateway/services/media-limits.ts';
import { MIN_AUDIO_BYTES_PER_SECOND, transcriptionHoldSeconds } from '../../../electron/gateway/services/transcription-hold.ts';
import { silentWav16 } from '../../helpers/wav-files.ts';

test('a WAV reserves the seconds its header declares, however many bytes it takes', () => {
  const file = silentWav16(8_000, 3);
  assert.equal(transcriptionHoldSeconds(file.length, file), 3);
});

test('other audio reserves its bytes at the lowest bit rate, rounded up; a length alone (a relayed form) the same', () => {
  const mp3ish = Buffer.alloc(2_500, 0xff);
  assert.equal(transcriptionHoldSeconds(mp3ish.length, mp3ish), Math.ceil(2_500 / MIN_AUDIO_BYTES_PER_SECOND));
  assert.equal(transcriptionHoldSeconds(2_500), 3);
});

test('no reservation passes the longest transcription', () => {
  assert.equal(transcriptionHoldSeconds(25 * 1024 * 1024), MAX_TRANSCRIPTION_SECONDS);
  const long = silentWav16(8_000, MAX_TRANSCRIPTION_SECONDS + 10);
  assert.equal(transcriptionHoldSeconds(long.length, long), MAX_TRANSCRIPTION_SECONDS);
});

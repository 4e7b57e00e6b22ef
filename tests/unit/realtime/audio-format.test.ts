// Unit tests of the realtime audio formats: PCM16 passes through, G.711 μ-law and A-law match the standard's code points and round-trip closely.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAudio, encodeAudio, parseFormat } from '../../../electron/gateway/realtime/audio-format.ts';

test('PCM16 round-trips exactly', () => {
  const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
  assert.deepEqual(decodeAudio(encodeAudio(samples, 'pcm16'), 'pcm16'), samples);
});

test('G.711 code points: silence and the extremes', () => {
  const three = (value: number) => Int16Array.from([value, value, value]);
  assert.equal(encodeAudio(three(0), 'pcmu')[0], 0xff);
  assert.equal(encodeAudio(three(32767), 'pcmu')[0], 0x80);
  assert.equal(encodeAudio(three(-32768), 'pcmu')[0], 0x00);
  assert.equal(encodeAudio(three(0), 'pcma')[0], 0xd5);
  assert.equal(encodeAudio(three(32767), 'pcma')[0], 0xaa);
  assert.equal(encodeAudio(three(-32768), 'pcma')[0], 0x2a);
  assert.deepEqual([...decodeAudio(Buffer.from([0xff]), 'pcmu')], [0, 0, 0], 'one 8 kHz sample is three 24 kHz samples');
});

for (const format of ['pcmu', 'pcma'] as const) {
  test(`${format}: every level round-trips within the companding step`, () => {
    for (let value = -32000; value <= 32000; value += 97) {
      const back = decodeAudio(encodeAudio(Int16Array.from([value, value, value]), format), format)[0]!;
      assert.ok(Math.abs(back - value) <= Math.max(16, Math.abs(value) / 16), `${value} → ${back}`);
    }
  });
}

test('formats by GA object or beta name', () => {
  assert.equal(parseFormat({ type: 'audio/pcm', rate: 24000 }), 'pcm16');
  assert.equal(parseFormat({ type: 'audio/pcm', rate: 16000 }), undefined);
  assert.equal(parseFormat({ type: 'audio/pcmu' }), 'pcmu');
  assert.equal(parseFormat('g711_alaw'), 'pcma');
  assert.equal(parseFormat('mp3'), undefined);
});

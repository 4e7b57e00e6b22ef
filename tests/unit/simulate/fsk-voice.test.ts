// Unit tests of the simulated voice's tone codec: every byte value, every speed and rate decodes back; other audio does not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listen, speechSeconds, synthesizeSpeech, VOICE_RATE } from '../../../electron/gateway/providers/simulate/fsk-voice.ts';

const EVERY_BYTE_TEXT = Buffer.from(Array.from({ length: 0x60 }, (_, i) => 0x20 + i)).toString('latin1') + 'é€😀中';

test('text with every printable ASCII character and multi-byte UTF-8 round-trips at speeds 0.25, 1 and 4', () => {
  for (const speed of [0.25, 1, 4]) assert.equal(listen(synthesizeSpeech(EVERY_BYTE_TEXT, { speed })), EVERY_BYTE_TEXT, `speed ${speed}`);
});

test('every UTF-8 continuation byte (0x80-0xBF) is told apart at the fastest speed', () => {
  // U+0080..U+00FF are 0xC2/0xC3 followed by each continuation byte; printable ASCII is covered above.
  const text = Array.from({ length: 64 }, (_, i) => String.fromCodePoint(0x80 + i) + String.fromCodePoint(0xc0 + i)).join('');
  assert.equal(listen(synthesizeSpeech(text, { speed: 4 })), text);
});

test('other sample rates decode when told the rate', () => {
  const samples = synthesizeSpeech('Forty-eight kilohertz.', { sampleRate: 48_000 });
  assert.equal(listen(samples, 48_000), 'Forty-eight kilohertz.');
  assert.throws(() => synthesizeSpeech('x', { sampleRate: 16_000 }), RangeError);
});

test('duration grows with the text and shrinks with the speed', () => {
  const short = synthesizeSpeech('Hi').length;
  const long = synthesizeSpeech('Hi there, how are you today?').length;
  assert.ok(long > short * 3);
  assert.ok(synthesizeSpeech('Hi there, how are you today?', { speed: 2 }).length < long * 0.7);
  assert.ok(synthesizeSpeech('Hi there, how are you today?', { speed: 0.5 }).length > long * 1.5);
});

test('silence, noise and a corrupted symbol are not read as speech', () => {
  assert.equal(listen(new Int16Array(24_000)), undefined);
  const noise = new Int16Array(24_000);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) noise[i] = ((x = (x * 1103515245 + 12345) & 0x7fffffff) % 20000) - 10000;
  assert.equal(listen(noise), undefined);
  const samples = synthesizeSpeech('checksum');
  const third = 1320 * 2 + 1320 * 3;
  for (let i = 0; i < 1320; i++) samples[third + i] = Math.round(8000 * Math.sin((2 * Math.PI * 5000 * i) / 24_000));
  assert.equal(listen(samples), undefined);
});

test('the speech duration is known before any sample is made, exactly', () => {
  for (const [text, speed] of [
    ['short', 1],
    ['Grüße €', 0.25],
    ['x'.repeat(300), 4],
    ['', 1.5],
  ] as const) {
    assert.equal(speechSeconds(text, speed), synthesizeSpeech(text, { speed }).length / VOICE_RATE, `${text.slice(0, 10)} at ${speed}`);
  }
});

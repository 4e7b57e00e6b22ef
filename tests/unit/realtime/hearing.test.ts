// Unit tests of what the simulated realtime model hears: its own voice with silence around it decodes exactly; other audio gives a stable sentence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { synthesizeSpeech } from '../../../electron/gateway/providers/simulate/fsk-voice.ts';
import { hear } from '../../../electron/gateway/providers/simulate/hearing.ts';

const padded = (samples: Int16Array, beforeMs: number, afterMs: number) => {
  const all = new Int16Array(samples.length + (beforeMs + afterMs) * 24);
  all.set(samples, beforeMs * 24);
  return all;
};

test('speech with silence before and after (as VAD commits it) is heard exactly, at any speed', () => {
  assert.equal(hear(padded(synthesizeSpeech('turn left at the lighthouse'), 300, 500)), 'turn left at the lighthouse');
  assert.equal(hear(padded(synthesizeSpeech('faster now', { speed: 1.5 }), 120, 40)), 'faster now');
  assert.equal(hear(synthesizeSpeech('no padding')), 'no padding');
});

test('audio that is not the simulated voice is heard as the same sentence every time', () => {
  const noise = Int16Array.from({ length: 24_000 }, (_, i) => ((i * 7919) % 2000) - 1000);
  const heard = hear(noise);
  assert.ok(heard.length > 10);
  assert.equal(hear(noise), heard);
});

// Unit tests of the realtime input buffer and its server VAD: speech start with prefix padding, stop after the silence, chunking does not matter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputAudio } from '../../../electron/gateway/realtime/input-audio.ts';
import { defaultTurnDetection } from '../../../electron/gateway/realtime/session-config.ts';

const RATE = 24_000;
const ms = (n: number) => (n * RATE) / 1000;
/** A 440 Hz tone at `level` of full scale. */
const tone = (durationMs: number, level: number) =>
  Int16Array.from({ length: ms(durationMs) }, (_, i) => Math.round(level * 32767 * Math.sin((2 * Math.PI * 440 * i) / RATE)));
const quiet = (durationMs: number) => new Int16Array(ms(durationMs));
const join = (...parts: Int16Array[]) => {
  const all = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (all.set(part, at), at + part.length), 0);
  return all;
};

test('speech starts at the first loud frame minus the prefix padding and stops once the silence lasts silence_duration_ms', () => {
  const input = new InputAudio();
  const events = input.append(join(quiet(1000), tone(800, 0.3), quiet(700)), defaultTurnDetection());
  assert.deepEqual(events, [
    { type: 'speech_started', at: ms(1000 - 300) },
    { type: 'speech_stopped', at: ms(1800 + 500) },
  ]);
  assert.equal(input.take(events[0]!.at, events[1]!.at).length, ms(1600));
  assert.equal(input.length, ms(200), 'audio after the stop stays in the buffer');
});

test('the same audio in 20 ms chunks gives the same events', () => {
  const audio = join(quiet(400), tone(500, 0.3), quiet(300), tone(300, 0.3), quiet(600));
  const whole = new InputAudio().append(audio, defaultTurnDetection());
  const input = new InputAudio();
  const chunked = [];
  for (let at = 0; at < audio.length; at += ms(20)) chunked.push(...input.append(audio.subarray(at, at + ms(20)), defaultTurnDetection()));
  assert.deepEqual(chunked, whole);
  assert.equal(whole.length, 2, 'a 300 ms pause is shorter than the 500 ms silence: one turn');
});

test('quiet audio below the threshold level is not speech; a lower threshold hears it; no detection when turn detection is off', () => {
  const murmur = join(tone(500, 0.015), quiet(600));
  assert.deepEqual(new InputAudio().append(murmur, defaultTurnDetection()), []);
  assert.equal(new InputAudio().append(murmur, { ...defaultTurnDetection(), threshold: 0.2 }).length, 2);
  assert.deepEqual(new InputAudio().append(join(tone(500, 0.3), quiet(600)), null), []);
});

test('a second turn cannot start before the end of the first, and the clock counts all audio of the session', () => {
  const input = new InputAudio();
  const detection = { ...defaultTurnDetection(), prefixPaddingMs: 1000 };
  const first = input.append(join(tone(200, 0.3), quiet(500)), detection);
  input.take(first[0]!.at, first[1]!.at);
  const second = input.append(join(quiet(100), tone(200, 0.3)), detection);
  assert.deepEqual(second, [{ type: 'speech_started', at: first[1]!.at }]);
});

test('between turns only the prefix padding of silence is kept, so an open microphone does not fill the buffer', () => {
  const input = new InputAudio();
  for (let i = 0; i < 500; i++) input.append(quiet(20), defaultTurnDetection());
  assert.ok(input.length <= ms(300 + 20), `${input.length} samples kept`);
  const events = input.append(join(tone(200, 0.3), quiet(600)), defaultTurnDetection());
  assert.equal(events[0]!.at, ms(10_000 - 300), 'the start still counts on the session clock');
  assert.equal(input.take(events[0]!.at, events[1]!.at).length, ms(300 + 200 + 500));
});

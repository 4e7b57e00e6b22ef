// Unit tests of transcript segments and their SRT and WebVTT renderings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { segmentsOf, toSrt, toVtt } from '../../../electron/gateway/protocols/media/transcripts.ts';

test('segments are sentences sharing the duration in proportion to their length', () => {
  const segments = segmentsOf('One two 3. Three four five six!', 3);
  assert.deepEqual(
    segments.map((s) => [s.text, s.start, s.end]),
    [
      ['One two 3.', 0, 1],
      ['Three four five six!', 1, 3],
    ],
  );
});

test('SRT cues: numbered from 1, comma milliseconds, hours over an hour', () => {
  const srt = toSrt([
    { id: 0, start: 0, end: 1.5, text: 'Hello.' },
    { id: 1, start: 3599.25, end: 3725.004, text: 'Later.' },
  ]);
  assert.equal(srt, '1\n00:00:00,000 --> 00:00:01,500\nHello.\n\n2\n00:59:59,250 --> 01:02:05,004\nLater.\n');
});

test('WebVTT: a WEBVTT header and dot milliseconds', () => {
  assert.equal(toVtt([{ id: 0, start: 0.5, end: 2, text: 'Hi.' }]), 'WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nHi.\n');
});

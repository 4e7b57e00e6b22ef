// Unit tests of playback: events wait their recorded offsets divided by the speed (none at 0), a blob is cut again into its recorded writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpCassette } from '../../../../shared/cassette.ts';
import { playBody } from '../../../../electron/gateway/providers/replay/playback.ts';

const base = {
  format: 1 as const,
  kind: 'http' as const,
  recording: { recordedAt: '2026-11-26T10:00:00.000+00:00', mode: 'relay' as const, protocol: 'openai' as const },
  request: { method: 'POST', path: '/v1/chat/completions', model: 'm', normal: {}, key: 'a'.repeat(64), stream: true },
  sequence: 1,
};

async function play(cassette: HttpCassette, speed: number, blob: Uint8Array[] = []) {
  const waits: number[] = [];
  const pieces: string[] = [];
  const playback = {
    speed,
    wait: async (ms: number) => void waits.push(ms),
    blob: async function* () {
      yield* blob;
    },
  };
  for await (const piece of playBody(cassette, 'c.json', playback, new AbortController().signal))
    pieces.push(Buffer.from(piece).toString());
  return { waits, pieces };
}

test('events wait their offsets divided by the speed; speed 0 waits for nothing', async () => {
  const cassette: HttpCassette = {
    ...base,
    response: {
      status: 200,
      headers: {},
      events: [
        { atMs: 100, data: 'a' },
        { atMs: 250, data: 'b' },
        { atMs: 250, data: 'c' },
      ],
      durationMs: 260,
    },
  };
  assert.deepEqual(await play(cassette, 1), { waits: [100, 150], pieces: ['a', 'b', 'c'] });
  assert.deepEqual(await play(cassette, 2), { waits: [50, 75], pieces: ['a', 'b', 'c'] });
  assert.deepEqual(await play(cassette, 0), { waits: [], pieces: ['a', 'b', 'c'] });
});

test('a whole answer comes after its duration; a blob is cut again into its recorded writes at their offsets', async () => {
  const whole: HttpCassette = { ...base, response: { status: 200, headers: {}, body: { text: 'all' }, durationMs: 40 } };
  assert.deepEqual(await play(whole, 1), { waits: [40], pieces: ['all'] });
  const blob: HttpCassette = {
    ...base,
    response: {
      status: 200,
      headers: {},
      body: { blob: { file: 'b.bin', bytes: 6, sha256: 'b'.repeat(64) } },
      chunks: [
        { atMs: 10, bytes: 2 },
        { atMs: 30, bytes: 4 },
      ],
      durationMs: 31,
    },
  };
  assert.deepEqual(await play(blob, 1, [Buffer.from('abc'), Buffer.from('def')]), { waits: [10, 20], pieces: ['ab', 'cdef'] });
});

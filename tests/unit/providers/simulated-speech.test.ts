// Unit tests of the simulated speech provider's own limit: speech its voice would speak for longer than MAX_SPEECH_SECONDS is refused before any work.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import { SimulatedSpeech } from '../../../electron/gateway/providers/simulate/capabilities/media.ts';
import { MAX_SPEECH_SECONDS } from '../../../electron/gateway/providers/simulate/speech-limit.ts';
import { MediaPool } from '../../../electron/gateway/workers/media-pool.ts';

test('speech is refused by the seconds it would last at its speed', async () => {
  const pool = new MediaPool({ workers: 1 });
  const speech = new SimulatedSpeech(pool);
  const ask = (input: string, speed: number) => speech.speak({ input, speed, format: 'pcm' });
  try {
    await assert.rejects(ask('€'.repeat(4096), 1), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.kind, 'invalid_request');
      assert.equal(error.param, 'input');
      assert.match(error.message, new RegExp(`would last 677 s at speed 1; at most ${MAX_SPEECH_SECONDS} s`));
      return true;
    });
    const fast = await ask('€'.repeat(4096), 4);
    assert.ok(fast.length > 0);
  } finally {
    await pool.close();
  }
});

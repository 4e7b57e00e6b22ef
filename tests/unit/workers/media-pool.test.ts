// Unit tests of the media worker pool: results identical to in-process work, a bad input as a 400, a full queue as a 503, and close.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodePng } from '../../../electron/gateway/providers/simulate/png.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import { runMediaJob } from '../../../electron/gateway/workers/media-jobs.ts';
import { MediaPool } from '../../../electron/gateway/workers/media-pool.ts';

test('a job on a worker gives the same bytes as the same job in-process', async () => {
  const pool = new MediaPool({ workers: 1 });
  try {
    const input = { prompt: 'same', width: 80, height: 60, n: 2 };
    const [onWorker, here] = [await pool.run('images.generate', input), runMediaJob('images.generate', input)];
    assert.deepEqual(
      onWorker.map((image) => Buffer.from(image.png)),
      here.map((image) => Buffer.from(image.png)),
    );
    const speech = { input: 'same sound', speed: 1.5, format: 'wav' as const };
    assert.deepEqual(Buffer.from(await pool.run('speech', speech)), Buffer.from(runMediaJob('speech', speech)));
  } finally {
    await pool.close();
  }
});

test('an input the job cannot use is a 400 naming its field; the worker stays usable', async () => {
  const pool = new MediaPool({ workers: 1 });
  try {
    const corrupt = encodePng({ width: 4, height: 4, rgba: new Uint8Array(64) });
    corrupt.fill(0, 41, corrupt.length - 12);
    await assert.rejects(
      pool.run('images.edit', { prompt: 'x', images: [{ field: 'image[]', bytes: corrupt }], n: 1 }),
      (error: unknown) => {
        assert.ok(error instanceof GatewayError);
        assert.deepEqual([error.kind, error.param], ['invalid_request', 'image[]']);
        assert.match(error.message, /Invalid image file in 'image\[\]'/);
        return true;
      },
    );
    assert.equal((await pool.run('transcribe', { bytes: Buffer.from('noise'), name: 'a.bin' })).text.length > 0, true);
  } finally {
    await pool.close();
  }
});

test('beyond the workers and the queue, a job is refused with a 503; closing fails what waits', async () => {
  const pool = new MediaPool({ workers: 1, queue: 1 });
  const job = () => pool.run('speech', { input: 'a'.repeat(600), speed: 1, format: 'mp3' });
  const running = job();
  const waiting = job();
  await assert.rejects(
    job(),
    (error: unknown) => error instanceof GatewayError && error.kind === 'unavailable' && /1 are waiting \(at most 1\)/.test(error.message),
  );
  assert.ok((await running).length > 0);
  const queued = assert.rejects(job(), (error: unknown) => error instanceof GatewayError && error.kind === 'unavailable');
  const stopped = Promise.allSettled([waiting]);
  await pool.close();
  await queued;
  await stopped;
  await assert.rejects(job(), /shutting down/);
});

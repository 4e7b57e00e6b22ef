// Integration test: generated image files expire after an hour (as the real API's image URLs do), so they do not pile up on disk.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { IMAGE_URL_TTL_MS } from '../../electron/gateway/services/file-expiry.ts';
import { manualClock } from '../helpers/clock.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

describe('generated image files', () => {
  const clock = manualClock(Date.now());
  const suite = useOpenAIGateway({ clock });
  const files = () => readdirSync(path.join(suite.gw.dataDir, 'files', 'images'));
  const generate = async () =>
    (await suite.client.images.generate({ model: 'dall-e-2', prompt: 'a kite', n: 2, size: '256x256', response_format: 'url' })).data!.map(
      (image) => image.url!,
    );

  test('an image URL works for an hour; then it is a 404 and the next generation deletes its file', async () => {
    const first = await generate();
    assert.equal((await fetch(first[0]!)).status, 200);
    clock.advance(IMAGE_URL_TTL_MS - 60_000);
    assert.equal((await fetch(first[1]!)).status, 200, 'still within the hour');
    clock.advance(2 * 60_000);
    assert.equal((await fetch(first[0]!)).status, 404);
    assert.equal(files().length, 2, 'nothing deleted until the next generation');
    const second = await generate();
    assert.equal((await fetch(second[0]!)).status, 200);
    assert.deepEqual(files().sort(), second.map((url) => url.split('/').at(-1)!).sort(), 'only the new files remain');
  });
});

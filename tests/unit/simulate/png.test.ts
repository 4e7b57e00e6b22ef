// Unit tests of the PNG encoder and decoder: round trips, filtered rows from other encoders, and clear errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePng, encodePng } from '../../../electron/gateway/providers/simulate/png.ts';
import { readPngHeader } from '../../../electron/gateway/protocols/media/png-header.ts';
import { pngOf } from '../../helpers/png-files.ts';

test('an RGBA image survives encode then decode', () => {
  const width = 7;
  const height = 5;
  const rgba = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 37) % 256);
  const png = encodePng({ width, height, rgba });
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const back = decodePng(png);
  assert.deepEqual([back.width, back.height], [width, height]);
  assert.deepEqual(back.rgba, rgba);
});

/** A PNG built by hand: 8-bit `colorType` rows, each with its own filter byte, to test the decoder's unfiltering. */
const handmade = (width: number, height: number, colorType: number, rows: number[][]) =>
  pngOf(width, height, colorType, Buffer.from(rows.flat()));

test('gray and RGB images with sub, up, average and paeth filters decode to the right pixels', () => {
  // Gray 3x2: row 0 "sub" of 10,20,30 is 10,10,10; row 1 "up" of 15,25,35 is 5,5,5.
  const gray = decodePng(
    handmade(3, 2, 0, [
      [1, 10, 10, 10],
      [2, 5, 5, 5],
    ]),
  );
  assert.deepEqual(Array.from(gray.rgba.filter((_, i) => i % 4 === 0)), [10, 20, 30, 15, 25, 35]);
  assert.ok(gray.rgba.filter((_, i) => i % 4 === 3).every((a) => a === 255));
  // RGB 1x2: row 0 raw (100,50,0); row 1 "average" with up only: raw + floor(up/2) → (60,35,10) from (10,10,10).
  const rgb = decodePng(
    handmade(1, 2, 2, [
      [0, 100, 50, 0],
      [3, 10, 10, 10],
    ]),
  );
  assert.deepEqual(Array.from(rgb.rgba), [100, 50, 0, 255, 60, 35, 10, 255]);
  // Paeth on row 1 with only "up" available picks up: (100,50,0) + (1,1,1).
  const paeth = decodePng(
    handmade(1, 2, 2, [
      [0, 100, 50, 0],
      [4, 1, 1, 1],
    ]),
  );
  assert.deepEqual(Array.from(paeth.rgba.subarray(4)), [101, 51, 1, 255]);
});

test('what is not a supported PNG is refused with a reason', () => {
  assert.throws(() => decodePng(Buffer.from('GIF89a')), /not a PNG/);
  const sixteenBit = handmade(1, 1, 2, [[0, 0, 0, 0, 0, 0, 0]]);
  sixteenBit[24] = 16;
  assert.throws(() => decodePng(sixteenBit), /8-bit/);
  const interlaced = handmade(1, 1, 2, [[0, 0, 0, 0]]);
  interlaced[28] = 1;
  assert.throws(() => decodePng(interlaced), /non-interlaced/);
  assert.throws(() => decodePng(handmade(1, 1, 3, [[0, 0]])), /gray, RGB or RGBA/, 'palette images');
});

test('a forged size or short image data is refused, not allocated or read past', () => {
  assert.throws(() => decodePng(handmade(5000, 5000, 0, [[0, 0]])), /larger than/);
  assert.throws(() => decodePng(handmade(3, 2, 0, [[0, 1, 2, 3]])), /truncated/);
  const bomb = handmade(2, 2, 0, [Array.from({ length: 10_000 }, () => 0)]);
  assert.throws(() => decodePng(bomb), /corrupt or larger/);
});

test('the header gives the declared size and colour type without inflating the image data', () => {
  const png = handmade(3, 2, 0, [
    [1, 10, 10, 10],
    [2, 5, 5, 5],
  ]);
  assert.deepEqual(readPngHeader(png), { width: 3, height: 2, colorType: 0 });
  // Declared 4096x4096 with image data that would not even inflate: the header alone is read.
  const forged = handmade(4096, 4096, 6, [[0]]);
  forged.fill(0xff, 41);
  assert.deepEqual(readPngHeader(forged), { width: 4096, height: 4096, colorType: 6 });
  assert.throws(() => readPngHeader(forged.subarray(0, 20)), /no IHDR/);
  assert.throws(() => readPngHeader(handmade(0, 5, 0, [[0]])), /no image data/);
  assert.throws(() => readPngHeader(handmade(1, 1, 3, [[0, 0]])), /gray, RGB or RGBA/);
  assert.throws(() => readPngHeader(Buffer.from('not a png at all, just text')), /not a PNG/);
});

// Unit tests of the icon set: the drawing at any size, the .ico and .icns containers, and the committed files each platform's package uses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { decodePng, encodePng } from '../../../electron/gateway/providers/simulate/png.ts';
import { ICNS_TYPES, icnsFile, icoFile, pngSize, readIcns, readIco } from '../../../scripts/icon/containers.ts';
import { drawIcon } from '../../../scripts/icon/draw.ts';
import { ROOT } from '../../helpers/build.ts';

const pixel = (image: { width: number; rgba: Uint8Array }, x: number, y: number) => [
  ...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];
const resource = (name: string) => readFileSync(path.join(ROOT, 'resources', name));

describe('icon drawing', () => {
  test('the same design at every size: transparent corners, blue field, white gate', () => {
    for (const size of [16, 64, 512]) {
      const image = drawIcon(size);
      assert.equal(image.rgba.length, size * size * 4);
      assert.equal(pixel(image, 0, 0)[3], 0, `${size}: the corner is transparent`);
      const field = pixel(image, Math.floor(size * 0.12), Math.floor(size * 0.5));
      assert.equal(field[3], 255, `${size}: the field is opaque`);
      assert.ok(field[2]! > field[0]! + 60, `${size}: the field is blue (${field})`);
      // The solid band of the tower above the arch; at 16 px it shares a pixel with the arch's top.
      const wall = pixel(image, Math.floor(size * 0.5), Math.floor(size * 0.33));
      assert.ok(
        wall.slice(0, 3).every((channel) => channel >= 220),
        `${size}: the tower is white (${wall})`,
      );
      const gateway = pixel(image, Math.floor(size * 0.47), Math.floor(size * 0.7));
      assert.ok(gateway[2]! > gateway[0]! + 60, `${size}: the arch between the bars shows the blue field (${gateway})`);
    }
  });
});

describe('icon containers', () => {
  const pngs = new Map(
    [16, 32, 64, 128, 256, 512, 1024].map((size) => [
      size,
      encodePng({ width: size, height: size, rgba: new Uint8Array(size * size * 4) }),
    ]),
  );

  test('.ico: a directory entry per image, 256 written as 0, offsets that point at the PNGs', () => {
    const file = icoFile([pngs.get(16)!, pngs.get(256)!]);
    assert.equal(file.readUInt8(6 + 16), 0, '256 is stored as 0');
    const images = readIco(file);
    assert.deepEqual(
      images.map((image) => [image.width, image.height]),
      [
        [16, 16],
        [256, 256],
      ],
    );
    assert.deepEqual(
      images.map((image) => pngSize(image.png).width),
      [16, 256],
    );
    assert.throws(() => icoFile([pngs.get(512)!]), /at most 256/);
  });

  test('.icns: the declared length, and each element holds a PNG of its type’s size', () => {
    const file = icnsFile(pngs);
    const elements = readIcns(file);
    assert.deepEqual(elements.map((element) => element.type).sort(), Object.keys(ICNS_TYPES).sort());
    for (const element of elements) assert.equal(pngSize(element.data).width, ICNS_TYPES[element.type], element.type);
    assert.throws(() => icnsFile(new Map([[16, pngs.get(16)!]])), /no 32px image/);
    assert.throws(() => readIcns(file.subarray(0, file.length - 1)), /length/);
  });
});

describe('committed icon set (run `npm run icons` to redraw)', () => {
  test('resources/icon.png and the Linux sizes decode to the size their name says', () => {
    assert.equal(decodePng(resource('icon.png')).width, 512);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const image = decodePng(resource(`icons/${size}x${size}.png`));
      assert.deepEqual([image.width, image.height], [size, size]);
    }
  });

  test('resources/icon.ico holds 16 to 256 pixels, as Windows installers need', () => {
    const sizes = readIco(resource('icon.ico')).map((image) => {
      const decoded = decodePng(image.png);
      assert.equal(decoded.width, image.width, 'the entry states its PNG’s size');
      return image.width;
    });
    assert.deepEqual(sizes, [16, 24, 32, 48, 64, 128, 256]);
  });

  test('resources/icon.icns holds every size up to 1024 (512@2x)', () => {
    const sizes = readIcns(resource('icon.icns')).map((element) => decodePng(element.data).width);
    assert.ok(sizes.includes(1024) && sizes.includes(16), sizes.join(','));
  });
});

#!/usr/bin/env node
// Draws the app icon (a white gatehouse arch with portcullis bars on a blue rounded square) and writes resources/icon.png; no image library needed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;

/** CRC-32 of PNG chunks. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Coverage (0..1) of the shape at a pixel, 4×4 supersampled for smooth edges. */
function coverage(x, y, inside) {
  let hits = 0;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (inside(x + (i + 0.5) / 4, y + (j + 0.5) / 4)) hits++;
  return hits / 16;
}

const roundedSquare = (x, y) => {
  const r = 96, m = 24;
  const cx = Math.min(Math.max(x, m + r), SIZE - m - r);
  const cy = Math.min(Math.max(y, m + r), SIZE - m - r);
  return x >= m && y >= m && x <= SIZE - m && y <= SIZE - m && Math.hypot(x - cx, y - cy) <= r;
};
// The gate: a tower block with an arched opening, crossed by portcullis bars.
const gate = (x, y) => {
  const inBlock = x >= 136 && x <= 376 && y >= 150 && y <= 400;
  const merlon = y >= 110 && y < 150 && [136, 200, 264, 328].some((left) => x >= left && x <= left + 48);
  const inArch = x >= 186 && x <= 326 && y <= 400 && (y >= 260 || Math.hypot(x - 256, y - 260) <= 70);
  const bar = inArch && ((x - 186) % 35 < 9 || (y >= 300 && (y - 300) % 40 < 9));
  return (inBlock || merlon) && (!inArch || bar);
};

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const t = (x + y) / (2 * SIZE);
    const background = [Math.round(47 + 30 * t), Math.round(111 - 40 * t), Math.round(219 - 60 * t)];
    const base = coverage(x, y, roundedSquare);
    const white = coverage(x, y, gate);
    const offset = y * (SIZE * 4 + 1) + 1 + x * 4;
    for (let channel = 0; channel < 3; channel++) raw[offset + channel] = Math.round(background[channel] * (1 - white) + 255 * white);
    raw[offset + 3] = Math.round(255 * base);
  }
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../resources/icon.png', import.meta.url), png);
console.log(`wrote resources/icon.png (${SIZE}×${SIZE}, ${png.length} bytes)`);

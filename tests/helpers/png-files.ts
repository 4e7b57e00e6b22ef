// Test helper: PNG files built by hand from raw scanlines (each row starts with its filter byte), for decoder and limit tests.
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, data, Buffer.alloc(4)]);
}

/** An 8-bit PNG of `colorType` (0 gray, 2 RGB, 4 gray+alpha, 6 RGBA) declaring `width`×`height`, whose IDAT is `raw` deflated (CRCs left zero). */
export function pngOf(width: number, height: number, colorType: number, raw: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A real all-black gray PNG that decodes to `width`×`height` pixels, yet is tiny: its zeros deflate to almost nothing. */
export function blackPng(width: number, height: number): Buffer {
  return pngOf(width, height, 0, Buffer.alloc((width + 1) * height));
}

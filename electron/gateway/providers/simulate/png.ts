// PNG encoding (8-bit RGBA) and decoding (8-bit gray, gray+alpha, RGB, RGBA; non-interlaced) with node:zlib.
import { deflateSync, inflateSync } from 'node:zlib';
import { PNG_CHANNELS, PNG_SIGNATURE, readPngHeader } from '../../protocols/media/png-header.ts';

/** An image as RGBA bytes, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Most pixels a decoded image may have (guards memory against a forged header or a deflate bomb). */
export const MAX_DECODED_PIXELS = 4096 * 4096;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(image: RgbaImage): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const stride = image.width * 4;
  const raw = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) raw.set(image.rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Decodes a PNG, or throws an Error saying what is not supported. */
export function decodePng(bytes: Buffer): RgbaImage {
  const { width, height, colorType } = readPngHeader(bytes);
  if (width * height > MAX_DECODED_PIXELS) throw new Error(`the PNG is larger than ${MAX_DECODED_PIXELS} pixels`);
  let offset = 8;
  const data: Buffer[] = [];
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    if (type === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length));
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (data.length === 0) throw new Error('the PNG has no image data');
  const channels = PNG_CHANNELS[colorType]!;
  const stride = width * channels;
  const raw = inflateImageData(Buffer.concat(data), (stride + 1) * height);
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) unfilter(raw, y * (stride + 1), pixels, y * stride, stride, channels);
  const rgba = new Uint8Array(width * height * 4);
  const gray = channels <= 2;
  const alpha = channels === 2 || channels === 4;
  for (let i = 0, p = 0, o = 0; i < width * height; i++, p += channels, o += 4) {
    rgba[o] = pixels[p]!;
    rgba[o + 1] = pixels[gray ? p : p + 1]!;
    rgba[o + 2] = pixels[gray ? p : p + 2]!;
    rgba[o + 3] = alpha ? pixels[p + channels - 1]! : 255;
  }
  return { width, height, rgba };
}

/** The inflated scanlines, exactly `size` bytes long, or an Error for corrupt, short or oversized data. */
function inflateImageData(compressed: Buffer, size: number): Buffer {
  let raw: Buffer;
  try {
    raw = inflateSync(compressed, { maxOutputLength: size });
  } catch {
    throw new Error('the PNG image data is corrupt or larger than its header says');
  }
  if (raw.length < size) throw new Error('the PNG image data is truncated');
  return raw;
}

function unfilter(raw: Buffer, from: number, out: Buffer, to: number, stride: number, bpp: number): void {
  const filter = raw[from]!;
  for (let x = 0; x < stride; x++) {
    const value = raw[from + 1 + x]!;
    const left = x >= bpp ? out[to + x - bpp]! : 0;
    const up = to >= stride ? out[to - stride + x]! : 0;
    const upLeft = x >= bpp && to >= stride ? out[to - stride + x - bpp]! : 0;
    let predictor = 0;
    if (filter === 1) predictor = left;
    else if (filter === 2) predictor = up;
    else if (filter === 3) predictor = (left + up) >> 1;
    else if (filter === 4) {
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    out[to + x] = (value + predictor) & 0xff;
  }
}

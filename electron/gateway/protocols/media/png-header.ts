// The PNG signature and header (IHDR) reader: what an uploaded PNG declares, read without inflating anything.

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Channels per pixel of each supported PNG colour type (0 gray, 2 RGB, 4 gray+alpha, 6 RGBA). */
export const PNG_CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** What a PNG's IHDR chunk declares, read without inflating anything. */
export interface PngHeader {
  width: number;
  height: number;
  /** PNG colour type: 0 gray, 2 RGB, 4 gray+alpha, 6 RGBA. */
  colorType: number;
}

/**
 * The declared size and colour type of a PNG, from its first chunk (IHDR), or throws an Error when the bytes are
 * not a PNG we decode. Cheap: reads 33 bytes, so limits can be checked before any image data is inflated.
 */
export function readPngHeader(bytes: Buffer): PngHeader {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG file');
  if (bytes.length < 33 || bytes.toString('ascii', 12, 16) !== 'IHDR' || bytes.readUInt32BE(8) < 13)
    throw new Error('the PNG has no IHDR header');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const colorType = bytes[25]!;
  if (bytes[24] !== 8 || bytes[28] !== 0 || !(colorType in PNG_CHANNELS)) {
    throw new Error('only 8-bit, non-interlaced gray, RGB or RGBA PNGs are supported');
  }
  if (width === 0 || height === 0) throw new Error('the PNG has no image data');
  return { width, height, colorType };
}

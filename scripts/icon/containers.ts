// Icon containers made of PNG images: Windows .ico and macOS .icns, with readers that list what a file holds.

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (view.length < 24 || view.toString('ascii', 12, 16) !== 'IHDR') throw new Error('not a PNG with an IHDR chunk');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/** A Windows icon: a directory of square PNG images (Vista and later read PNG entries; 256 is written as 0). */
export function icoFile(pngs: readonly Buffer[]): Buffer {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach((png, index) => {
    const { width, height } = pngSize(png);
    if (width > 256 || height > 256) throw new Error(`an .ico entry is at most 256 pixels (got ${width}×${height})`);
    const entry = 6 + 16 * index;
    header.writeUInt8(width === 256 ? 0 : width, entry);
    header.writeUInt8(height === 256 ? 0 : height, entry + 1);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs]);
}

/** The images of an .ico file: their stated size and their PNG data. */
export function readIco(file: Buffer): Array<{ width: number; height: number; png: Buffer }> {
  if (file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1) throw new Error('not an .ico file');
  return Array.from({ length: file.readUInt16LE(4) }, (_, index) => {
    const entry = 6 + 16 * index;
    const length = file.readUInt32LE(entry + 8);
    const offset = file.readUInt32LE(entry + 12);
    if (offset + length > file.length) throw new Error(`entry ${index} runs past the end of the file`);
    return { width: file.readUInt8(entry) || 256, height: file.readUInt8(entry + 1) || 256, png: file.subarray(offset, offset + length) };
  });
}

/** The .icns element types that hold PNG data, by the pixel size of their image. */
export const ICNS_TYPES: Record<string, number> = {
  icp4: 16,
  icp5: 32,
  icp6: 64,
  ic07: 128,
  ic08: 256,
  ic09: 512,
  ic10: 1024, // 512@2x
  ic11: 32, // 16@2x
  ic12: 64, // 32@2x
  ic13: 256, // 128@2x
  ic14: 512, // 256@2x
};

/** A macOS icon: each type of ICNS_TYPES filled with the PNG of its size. */
export function icnsFile(pngBySize: ReadonlyMap<number, Buffer>): Buffer {
  const elements = Object.entries(ICNS_TYPES).map(([type, size]) => {
    const png = pngBySize.get(size);
    if (!png) throw new Error(`no ${size}px image for the .icns element ${type}`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(8 + png.length, 4);
    return Buffer.concat([head, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(8 + elements.reduce((sum, element) => sum + element.length, 0), 4);
  return Buffer.concat([header, ...elements]);
}

/** The elements of an .icns file: their type and data. */
export function readIcns(file: Buffer): Array<{ type: string; data: Buffer }> {
  if (file.toString('ascii', 0, 4) !== 'icns' || file.readUInt32BE(4) !== file.length)
    throw new Error('not an .icns file, or its length is wrong');
  const elements: Array<{ type: string; data: Buffer }> = [];
  for (let offset = 8; offset < file.length;) {
    const length = file.readUInt32BE(offset + 4);
    if (length < 8 || offset + length > file.length) throw new Error(`element at ${offset} has a bad length`);
    elements.push({ type: file.toString('ascii', offset, offset + 4), data: file.subarray(offset + 8, offset + length) });
    offset += length;
  }
  return elements;
}

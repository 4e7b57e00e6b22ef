// Writes the app icon set for packaging: resources/icon.png (window and tray), resources/icons/NxN.png (Linux), icon.ico (Windows), icon.icns (macOS).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from '../electron/gateway/providers/simulate/png.ts';
import { icnsFile, icoFile } from './icon/containers.ts';
import { drawIcon } from './icon/draw.ts';

const RESOURCES = fileURLToPath(new URL('../resources/', import.meta.url));
/** Sizes of the Linux icon theme folder (electron-builder installs each as hicolor/NxN/apps). */
export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
const ICNS_SIZES = [16, 32, 64, 128, 256, 512, 1024];

const pngs = new Map<number, Buffer>();
for (const size of new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_SIZES])) pngs.set(size, encodePng(drawIcon(size)));
const png = (size: number) => pngs.get(size)!;

const written: string[] = [];
const write = (name: string, bytes: Buffer) => {
  const file = path.join(RESOURCES, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  written.push(`${name} (${bytes.length} bytes)`);
};
write('icon.png', png(512));
for (const size of LINUX_SIZES) write(`icons/${size}x${size}.png`, png(size));
write('icon.ico', icoFile(ICO_SIZES.map(png)));
write('icon.icns', icnsFile(pngs));
console.log(`wrote ${written.join(', ')}`);

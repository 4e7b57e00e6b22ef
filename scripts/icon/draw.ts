// Draws the app icon at any size: a white gatehouse (tower, merlons, arched gate with portcullis bars) on a blue rounded square.
import type { RgbaImage } from '../../electron/gateway/providers/simulate/png.ts';

/** The design's own grid: shapes are drawn on a 512-unit square and scaled to the asked size. */
const GRID = 512;

function inRoundedSquare(x: number, y: number): boolean {
  const radius = 96;
  const margin = 24;
  const cx = Math.min(Math.max(x, margin + radius), GRID - margin - radius);
  const cy = Math.min(Math.max(y, margin + radius), GRID - margin - radius);
  return x >= margin && y >= margin && x <= GRID - margin && y <= GRID - margin && Math.hypot(x - cx, y - cy) <= radius;
}

function inGate(x: number, y: number): boolean {
  const inBlock = x >= 136 && x <= 376 && y >= 150 && y <= 400;
  const merlon = y >= 110 && y < 150 && [136, 200, 264, 328].some((left) => x >= left && x <= left + 48);
  const inArch = x >= 186 && x <= 326 && y <= 400 && (y >= 260 || Math.hypot(x - 256, y - 260) <= 70);
  const bar = inArch && ((x - 186) % 35 < 9 || (y >= 300 && (y - 300) % 40 < 9));
  return (inBlock || merlon) && (!inArch || bar);
}

/** Share (0–1) of a pixel a shape covers, from 4×4 samples, for smooth edges at every size. */
function coverage(px: number, py: number, scale: number, inside: (x: number, y: number) => boolean): number {
  let hits = 0;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (inside((px + (i + 0.5) / 4) * scale, (py + (j + 0.5) / 4) * scale)) hits++;
  return hits / 16;
}

/** The icon as an RGBA image `size` pixels square. */
export function drawIcon(size: number): RgbaImage {
  const scale = GRID / size;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      const background = [47 + 30 * t, 111 - 40 * t, 219 - 60 * t];
      const base = coverage(x, y, scale, inRoundedSquare);
      const white = coverage(x, y, scale, inGate);
      const offset = (y * size + x) * 4;
      for (let channel = 0; channel < 3; channel++) rgba[offset + channel] = Math.round(background[channel]! * (1 - white) + 255 * white);
      rgba[offset + 3] = Math.round(255 * base);
    }
  }
  return { width: size, height: size, rgba };
}

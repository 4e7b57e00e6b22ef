// Simulated image generation and editing: deterministic pictures from the prompt, and tinted copies of given images.
import { createHash } from 'node:crypto';
import type { RgbaImage } from './png.ts';

/** Three colours and a few circle positions from the prompt (and the image's index within `n`). */
function palette(prompt: string, index: number) {
  const d = createHash('sha256').update(`${index}:${prompt}`).digest();
  return {
    from: [d[0]!, d[1]!, d[2]!],
    to: [d[3]!, d[4]!, d[5]!],
    accent: [d[6]!, d[7]!, d[8]!],
    circles: [0, 1, 2].map((i) => [d[9 + i * 3]! / 255, d[10 + i * 3]! / 255, 0.05 + (d[11 + i * 3]! / 255) * 0.2]),
  };
}

/** A diagonal gradient with three soft circles: the same prompt, size and index always give the same image. */
export function generateImage(prompt: string, width: number, height: number, index = 0): RgbaImage {
  const { from, to, accent, circles } = palette(prompt, index);
  const rgba = new Uint8Array(width * height * 4);
  const color = [0, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) color[c] = from[c]! + (to[c]! - from[c]!) * t;
      for (const [cx, cy, r] of circles) {
        const dx = x / width - cx!;
        const dy = y / height - cy!;
        if (dx * dx + dy * dy < r! * r!) for (let c = 0; c < 3; c++) color[c] = (color[c]! + accent[c]!) / 2;
      }
      const at = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) rgba[at + c] = Math.round(color[c]!);
      rgba[at + 3] = 255;
    }
  }
  return { width, height, rgba };
}

/**
 * An edit of `image`: pixels move halfway toward the prompt's colour. With a mask (same size), only
 * pixels where the mask is transparent change, as in the OpenAI edits API.
 */
export function editImage(image: RgbaImage, prompt: string, mask?: RgbaImage): RgbaImage {
  const { accent } = palette(prompt, 0);
  const rgba = Uint8Array.from(image.rgba);
  for (let i = 0; i < image.width * image.height; i++) {
    if (mask && mask.rgba[i * 4 + 3]! > 0) continue;
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = Math.round((rgba[i * 4 + c]! + accent[c]!) / 2);
  }
  return { width: image.width, height: image.height, rgba };
}

/** `image` scaled to `width`×`height` by nearest neighbour (the edits API's `size`). */
export function resizeImage(image: RgbaImage, width: number, height: number): RgbaImage {
  if (image.width === width && image.height === height) return image;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor((y * image.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor((x * image.width) / width));
      rgba.set(image.rgba.subarray((sy * image.width + sx) * 4, (sy * image.width + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return { width, height, rgba };
}

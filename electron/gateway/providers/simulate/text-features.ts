// Text features shared by the simulated vector capabilities: lower-case word terms and a stable 32-bit string hash.
import { runPattern, runsOf } from './word-runs.ts';

const TERM = runPattern('[\\p{L}\\p{N}]', '[\\p{L}\\p{N}]');

/** Lower-case alphanumeric terms of a text (Unicode letters and digits), found slice by slice however long a word. */
export function terms(text: string): string[] {
  return runsOf(text.toLowerCase(), TERM);
}

/** FNV-1a 32-bit hash of a string, with a seed to derive independent hashes. */
export function hash32(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

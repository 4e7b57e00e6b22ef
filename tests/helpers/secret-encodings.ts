// Test helper: a secret written the ways a reader could decode it (JSON escapes, percent, base64), and a check that a text or a directory holds it in none of them.
import { filesUnder } from './files-under.ts';

/** `char` as JSON's `\uXXXX`, hex in the case asked. */
export function unicodeEscape(char: string, upper = false): string {
  const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
}

/** `char` (ASCII) as `%XX`, hex in the case asked. */
export function percentEscape(char: string, upper = false): string {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? hex.toUpperCase() : hex}`;
}

/** `text` JSON-escaped character by character, every other one, alternating the hex case. */
export function escapedMix(text: string): string {
  return [...text].map((char, index) => (index % 2 === 0 ? unicodeEscape(char, index % 4 === 0) : char)).join('');
}

/** `text` percent-encoded character by character, two in three, alternating the hex case. */
export function percentMix(text: string): string {
  return [...text].map((char, index) => (index % 3 === 2 ? char : percentEscape(char, index % 3 === 0))).join('');
}

/** The base64 characters of `secret` that do not depend on the bytes around it, at each of the three byte alignments. */
export function base64Middles(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [0, 1, 2].map((align) => {
    const text = Buffer.concat([Buffer.alloc(align), bytes]).toString('base64');
    return text.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6));
  });
}

/**
 * Whether `text` holds `secret` in any encoding a reader could decode: raw, after undoing JSON's `\uXXXX` and `\/` escapes,
 * after undoing percent-encoding, or as base64 or base64url (at any alignment).
 */
export function reveals(text: string, secret: string): boolean {
  const json = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replaceAll('\\/', '/');
  const percent = text.replace(/%([0-9a-fA-F]{2})/g, (whole, hex: string) =>
    parseInt(hex, 16) < 0x80 ? String.fromCharCode(parseInt(hex, 16)) : whole,
  );
  if ([text, json, percent].some((decoded) => decoded.includes(secret))) return true;
  const standard = text.replaceAll('\\/', '/').replaceAll('-', '+').replaceAll('_', '/');
  return base64Middles(secret).some((middle) => text.includes(middle) || standard.includes(middle));
}

/** The files under `dir` (every one, at any depth) whose bytes reveal `secret`, relative to `dir`. */
export function revealingFiles(dir: string, secret: string): string[] {
  return filesUnder(dir)
    .filter(({ bytes }) => reveals(bytes.toString('latin1'), secret))
    .map(({ name }) => name);
}

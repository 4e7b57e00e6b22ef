// Keeps a channel's key out of an upstream's error body: a body that echoes the key gets its hint (`sk-…wxyz`) instead, as error texts do (hideSecret).
import { secretHint } from '../../../../shared/channels.ts';

/** `bytes` with every occurrence of `key` (as UTF-8) replaced by its hint; the same bytes when the key is not in them. */
export function scrubBytes(bytes: Uint8Array, key: string | null): Uint8Array {
  if (!key) return bytes;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const needle = Buffer.from(key, 'utf8');
  if (buffer.indexOf(needle) < 0) return bytes;
  const hint = Buffer.from(secretHint(key), 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = buffer.indexOf(needle); at >= 0; at = buffer.indexOf(needle, from)) {
    parts.push(buffer.subarray(from, at), hint);
    from = at + needle.length;
  }
  parts.push(buffer.subarray(from));
  return Buffer.concat(parts);
}

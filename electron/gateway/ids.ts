// Opaque public identifiers and API token secrets, from the system's cryptographic random source.
import { createHash, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random bytes drawn from the system's source a pool at a time (one call per id cost a large share of a simulated answer); each byte is used once. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset]!;
  pool[poolOffset] = 0;
  poolOffset += 1;
  return byte;
}

/** `length` random base62 characters (rejection sampling keeps them uniform). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A public id such as `grp_…` or `ast_…`: a prefix and 20 random characters. */
export function publicId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

/** Prefix of every API token this gateway issues. */
export const TOKEN_PREFIX = 'sk-gh-';

/** A new API token secret. */
export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBase62(40);
}

/** The stored form of a token secret. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A short, safe-to-show hint of a secret: its prefix and last four characters. */
export function tokenHint(secret: string): string {
  return `${secret.slice(0, TOKEN_PREFIX.length + 2)}…${secret.slice(-4)}`;
}

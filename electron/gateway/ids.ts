// Opaque public identifiers and API token secrets, from the system's cryptographic random source.
import { hash, randomFillSync } from 'node:crypto';

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

/** The character codes of ALPHABET, and a scratch buffer an id is spelled in before it becomes one string (not one per character). */
const ALPHABET_CODES = Buffer.from(ALPHABET, 'latin1');
const spelled = Buffer.alloc(64);

/** Spells `length` random base62 characters into `spelled` from `offset` (rejection sampling keeps them uniform). */
function spellRandom(offset: number, length: number): void {
  for (let filled = offset; filled < offset + length;) {
    const byte = randomByte();
    if (byte < 248) spelled[filled++] = ALPHABET_CODES[byte % 62]!;
  }
}

/** `length` random base62 characters. */
export function randomBase62(length: number): string {
  if (length > spelled.length) {
    let out = '';
    while (out.length < length) out += randomBase62(Math.min(spelled.length, length - out.length));
    return out;
  }
  spellRandom(0, length);
  return spelled.toString('latin1', 0, length);
}

/** Characters of random in a public id. */
const PUBLIC_ID_RANDOM = 20;

/** A public id such as `grp_…` or `ast_…`: an ASCII prefix and 20 random characters (made as one flat string). */
export function publicId(prefix: string): string {
  if (prefix.length + 1 + PUBLIC_ID_RANDOM > spelled.length) return `${prefix}_${randomBase62(PUBLIC_ID_RANDOM)}`;
  const start = spelled.write(prefix, 0, 'latin1');
  spelled[start] = 0x5f; // '_'
  spellRandom(start + 1, PUBLIC_ID_RANDOM);
  return spelled.toString('latin1', 0, start + 1 + PUBLIC_ID_RANDOM);
}

/** Prefix of every API token this gateway issues. */
export const TOKEN_PREFIX = 'sk-gh-';

/** A new API token secret. */
export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBase62(40);
}

/** The stored form of a token secret (the one-shot `hash`: no Hash object per call, as every API call hashes its token). */
export function hashToken(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** A short, safe-to-show hint of a secret: its prefix and last four characters. */
export function tokenHint(secret: string): string {
  return `${secret.slice(0, TOKEN_PREFIX.length + 2)}…${secret.slice(-4)}`;
}

/** What a token given from outside (`GATEHOUSE_TOKEN`, the `token` config) must look like. */
const FIXED_TOKEN = /^sk-[A-Za-z0-9_-]{16,200}$/;
/** The rule FIXED_TOKEN checks, as a start-up error says it. */
export const FIXED_TOKEN_RULE = 'must be sk- followed by 16 to 200 letters, digits, _ or -';

/** True when `secret` looks like an API token (`sk-…`), so a fixed token from the environment can be accepted. */
export function isTokenLike(secret: string): boolean {
  return FIXED_TOKEN.test(secret);
}

/** Shortest and longest admin token given from outside (`GATEHOUSE_ADMIN_TOKEN`, the `adminToken` config). */
export const ADMIN_TOKEN_CHARS = { min: 16, max: 256 } as const;

/** Why a given admin token cannot be used (too short or long, or characters a header cannot carry), or undefined when it can. */
export function adminTokenProblem(token: string): string | undefined {
  if (token.length < ADMIN_TOKEN_CHARS.min || token.length > ADMIN_TOKEN_CHARS.max || !/^[\x21-\x7e]+$/.test(token))
    return `must be ${ADMIN_TOKEN_CHARS.min} to ${ADMIN_TOKEN_CHARS.max} printable ASCII characters without spaces`;
  return undefined;
}

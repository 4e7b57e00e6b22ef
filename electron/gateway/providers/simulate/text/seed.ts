// Deterministic randomness for the simulated model: a stable hash of the canonical request seeds a small PRNG.
import { createHash } from 'node:crypto';

/** A seeded pseudo-random source (mulberry32); the same seed always gives the same sequence. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** JSON with object keys sorted and undefined fields dropped, so key order in the client's JSON does not change the hash. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) out += (index === 0 ? '' : ',') + canonicalJson(value[index]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // Keys are strings, so the default sort orders them by UTF-16 code units, as `<` does.
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    out += (out.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(item);
  }
  return `${out}}`;
}

/**
 * A PRNG seeded by the SHA-256 of the canonical JSON of `material` (the parts of a request that decide the
 * answer: model, system, turns, tools, format, seed, choice index). Same material ⇒ same sequence.
 */
export function seededRandom(material: unknown): Random {
  const digest = createHash('sha256').update(canonicalJson(material), 'utf8').digest();
  let state = digest.readUInt32LE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

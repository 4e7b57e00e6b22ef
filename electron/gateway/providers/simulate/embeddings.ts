// Simulated embeddings: deterministic, L2-normalised feature-hashing vectors, so texts that share words are closer than unrelated texts.
import { hash32, terms } from './text-features.ts';

/** Dimensions of a vector when the request does not ask for others. */
export const DEFAULT_DIMENSIONS = 1536;

const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.35;
/** Weight of the per-text component that keeps distinct texts distinct (and empty-ish texts non-zero). */
const TEXT_WEIGHT = 0.15;

/**
 * The embedding of a text: each word and each character trigram of a word adds ±weight at a hashed
 * coordinate, plus a small component hashed from the whole text; the result has length 1.
 */
export function embed(text: string, dimensions = DEFAULT_DIMENSIONS): Float32Array {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number) => {
    const index = hash32(feature) % dimensions;
    const sign = hash32(feature, 0x9e3779b9) & 1 ? 1 : -1;
    vector[index]! += sign * weight;
  };
  for (const word of terms(text)) {
    add(`w:${word}`, WORD_WEIGHT);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  add(`x:${text}`, TEXT_WEIGHT);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Float32Array.from(vector, (value) => value / norm);
}

/** Token-id inputs become pseudo-words, so equal token sequences embed equally. */
export function tokensAsText(tokens: readonly number[]): string {
  return tokens.map((token) => `tok${token}`).join(' ');
}

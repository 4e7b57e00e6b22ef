// The OpenAI rule for `metadata` (Responses API, chat completions, batches, realtime responses): at most 16 pairs, keys up to 64 characters, string values up to 512.
import { invalid } from '../errors.ts';

/** Bounds on one `metadata` object, as on the real API. */
export const METADATA_LIMITS = { pairs: 16, keyLength: 64, valueLength: 512 } as const;

/** What is wrong with a metadata object (the path of the bad field and a message), or null when it keeps the rule. */
export function metadataProblem(fields: Record<string, unknown>, path: string): { param: string; message: string } | null {
  const entries = Object.entries(fields);
  if (entries.length > METADATA_LIMITS.pairs) return { param: path, message: `Invalid '${path}': at most ${METADATA_LIMITS.pairs} keys.` };
  for (const [key, text] of entries) {
    if (key.length > METADATA_LIMITS.keyLength || typeof text !== 'string' || text.length > METADATA_LIMITS.valueLength) {
      return {
        param: `${path}.${key.slice(0, METADATA_LIMITS.keyLength)}`,
        message: `Invalid '${path}.${key.slice(0, METADATA_LIMITS.keyLength)}': keys up to ${METADATA_LIMITS.keyLength} characters, string values up to ${METADATA_LIMITS.valueLength}.`,
      };
    }
  }
  return null;
}

/** `value` as a metadata object keeping the rule, or a 400 naming the bad field under `path`. */
export function metadataOf(value: unknown, path = 'metadata'): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`Invalid type for '${path}': expected an object.`, path);
  const problem = metadataProblem(value as Record<string, unknown>, path);
  if (problem) throw invalid(problem.message, problem.param);
  return value as Record<string, string>;
}

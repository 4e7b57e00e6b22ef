// Model aliases (extra model names, each standing for a listed model): their limits and the shape check of an alias map.

/** Most aliases a gateway keeps. */
export const MAX_MODEL_ALIASES = 200;
/** Longest alias name or target, in characters. */
export const MAX_ALIAS_LENGTH = 256;

/** Why a name or target cannot be used, or null when it can (1–256 characters, no `=` or `,`, no space at either end). */
export function aliasPartProblem(text: string, what: 'name' | 'target'): string | null {
  const label = what === 'name' ? 'An alias name' : 'An alias target';
  if (text.length < 1 || text.length > MAX_ALIAS_LENGTH) return `${label} must be 1 to ${MAX_ALIAS_LENGTH} characters`;
  if (/[=,]/.test(text)) return `${label} cannot contain "=" or ","; got "${text}"`;
  if (text.trim() !== text) return `${label} cannot start or end with a space; got "${text}"`;
  return null;
}

/**
 * Checks an alias map as saved (name → target): an object of strings, at most 200 entries, each part checked by
 * aliasPartProblem. Returns the map or the first problem.
 */
export function checkAliasMap(input: unknown): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, message: 'Model aliases must be an object of alias names to model ids' };
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_MODEL_ALIASES)
    return { ok: false, message: `At most ${MAX_MODEL_ALIASES} model aliases; got ${entries.length}` };
  const value: Record<string, string> = {};
  for (const [name, target] of entries) {
    if (typeof target !== 'string') return { ok: false, message: `The target of alias "${name}" must be a model id` };
    const problem = aliasPartProblem(name, 'name') ?? aliasPartProblem(target, 'target');
    if (problem) return { ok: false, message: problem };
    if (name === target) return { ok: false, message: `Alias "${name}" cannot stand for itself` };
    value[name] = target;
  }
  return { ok: true, value };
}

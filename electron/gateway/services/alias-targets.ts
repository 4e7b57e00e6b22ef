// The rule that a model alias the user adds or changes stands for a model the gateway lists (simulated or relayed).

/**
 * The problem with the first alias of `next` that is new or retargeted (against `saved`) and whose target is not in
 * `listed`, or null. Aliases kept as they were are not checked again, so a channel removed since does not block other edits.
 */
export function newAliasTargetProblem(
  next: Readonly<Record<string, string>>,
  saved: Readonly<Record<string, string>>,
  listed: readonly string[],
): string | null {
  const known = new Set(listed);
  for (const [name, target] of Object.entries(next)) {
    if (saved[name] === target || known.has(target)) continue;
    return `Alias "${name}" stands for "${target}", which is not a model this gateway lists (see the Models page or /v1/models)`;
  }
  return null;
}

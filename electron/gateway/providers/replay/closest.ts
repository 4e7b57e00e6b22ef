// The recorded request closest to a call that missed, and the first field where they differ, for the error of `--replay-miss error`.

/** Where two normal forms differ: each path (`body.temperature`, `body.turns[0].text`) in walk order, keys sorted; at most `limit`. */
export function differences(recorded: unknown, given: unknown, limit = 1_000, at = ''): string[] {
  const out: string[] = [];
  walk(recorded, given, at, out, limit);
  return out;
}

function walk(a: unknown, b: unknown, at: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.max(a.length, b.length); index += 1) walk(a[index], b[index], `${at}[${index}]`, out, limit);
    return;
  }
  if (isObject(a) && isObject(b)) {
    const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const name of names) walk(a[name], b[name], at === '' ? name : `${at}.${name}`, out, limit);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(at || '(the whole request)');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a miss's message shows it: JSON, cut to a readable length. */
export function shown(value: unknown, max = 80): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The value at a path `differences` gave. */
export function valueAt(root: unknown, path: string): unknown {
  let value: unknown = root;
  for (const step of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (value === undefined || value === null) return undefined;
    value = step.startsWith('[') ? (value as unknown[])[Number(step.slice(1, -1))] : (value as Record<string, unknown>)[step];
  }
  return value;
}

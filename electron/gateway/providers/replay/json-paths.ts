// JSON paths as `--replay-ignore` and `--record-redact` take them (`$.user`, `messages[0].content`, `tools[*].description`): parsed, a value dropped or replaced at each place one names.

/** One step of a path: an object field, an array index, or every item (`*`). */
type Step = { field: string } | { index: number } | { every: true };

/** The steps of `path`; a malformed path throws an Error naming it. */
export function parsePath(path: string): Step[] {
  const text = path.trim().replace(/^\$\.?/, '');
  const steps: Step[] = [];
  const pattern = /([^.[\]]+)|\[(\d+|\*)\]|\./gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < text.length && (match = pattern.exec(text)) !== null) {
    at = pattern.lastIndex;
    if (match[1] !== undefined) steps.push(match[1] === '*' ? { every: true } : { field: match[1] });
    else if (match[2] !== undefined) steps.push(match[2] === '*' ? { every: true } : { index: Number(match[2]) });
  }
  if (at !== text.length || steps.length === 0) throw new Error(`"${path}" is not a JSON path such as $.user or messages[0].content`);
  return steps;
}

/** A copy of `value` with what `path` names replaced by `replace(old)` (undefined: dropped); the rest shared. */
export function mapPath(value: unknown, path: string, replace: (old: unknown) => unknown): unknown {
  return walk(value, parsePath(path), replace);
}

/** A copy of `value` without what `path` names. */
export function dropPath(value: unknown, path: string): unknown {
  return mapPath(value, path, () => undefined);
}

function walk(value: unknown, steps: Step[], replace: (old: unknown) => unknown): unknown {
  const [step, ...rest] = steps;
  if (!step) return value;
  const next = (item: unknown) => (rest.length === 0 ? replace(item) : walk(item, rest, replace));
  if (Array.isArray(value)) {
    if ('every' in step) return value.map(next).filter((item) => item !== undefined);
    if (!('index' in step) || step.index >= value.length) return value;
    const copy = [...value];
    const item = next(copy[step.index]);
    if (item === undefined) copy.splice(step.index, 1);
    else copy[step.index] = item;
    return copy;
  }
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const names = 'every' in step ? Object.keys(object) : 'field' in step && step.field in object ? [step.field] : [];
  if (names.length === 0) return value;
  const copy = { ...object };
  for (const name of names) {
    const item = next(copy[name]);
    if (item === undefined) delete copy[name];
    else copy[name] = item;
  }
  return copy;
}

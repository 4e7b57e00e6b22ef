// A `.env` file's variables: read (`KEY=value`, `export KEY=value`, quoted or not) and set, every other line kept as it was.

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

/** The value of one line's assignment: quotes taken off (a double-quoted value's `\n` and `\"` read), a trailing comment dropped. */
function valueOf(raw: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(raw);
  if (quoted) return quoted[1] === '"' ? quoted[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1') : quoted[2]!;
  return raw.replace(/\s+#.*$/, '');
}

/** The variables of a `.env` text (the first assignment of a name wins, as the dotenv readers do). */
export function readDotenv(text: string | null): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of (text ?? '').split(/\r?\n/)) {
    const match = LINE.exec(line);
    if (match && !(match[1]! in found)) found[match[1]!] = valueOf(match[2]!);
  }
  return found;
}

/** A value as a `.env` line writes it: bare when it has only safe characters, else double-quoted. */
const written = (value: string): string =>
  /^[A-Za-z0-9_./:@+,=-]*$/.test(value) ? value : `"${value.replace(/(["\\])/g, '\\$1').replace(/\n/g, '\\n')}"`;

/** `text` with each variable of `set` assigned: its first line replaced (later ones of the same name removed), or added at the end. */
export function editDotenv(text: string | null, set: Record<string, string>): string {
  const newline = text?.includes('\r\n') ? '\r\n' : '\n';
  const lines = text ? text.replace(/\r?\n$/, '').split(/\r?\n/) : [];
  const done = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const name = LINE.exec(line)?.[1];
    if (name === undefined || !(name in set)) out.push(line);
    else if (!done.has(name)) {
      out.push(`${name}=${written(set[name]!)}`);
      done.add(name);
    }
  }
  for (const [name, value] of Object.entries(set)) if (!done.has(name)) out.push(`${name}=${written(value)}`);
  return `${out.join(newline)}${newline}`;
}

// A small, careful edit of a TOML file: a few top-level keys set and one table replaced, every other line kept byte for byte.

/** A TOML basic string of `value` (quotes, backslashes and control characters escaped). */
export function tomlString(value: string): string {
  return `"${value.replace(/[\\"\u0000-\u001f\u007f]/g, (char) => (char === '\\' || char === '"' ? `\\${char}` : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
}

/** A table header line (`[a.b]` or `[[a.b]]`, a comment allowed after it); its name has no spaces around dots. */
const HEADER = /^\s*(\[\[?)\s*([^\]]+?)\s*(\]\]?)\s*(#.*)?$/;

/** A header's name in canonical form: dotted parts without quotes or spaces (`model_providers."gatehouse"` → `model_providers.gatehouse`). */
const canonicalName = (name: string): string =>
  name
    .split('.')
    .map((part) => part.trim().replace(/^"(.*)"$|^'(.*)'$/, '$1$2'))
    .join('.');

/**
 * The lines of a TOML text, each marked when it is a table header, and when it starts inside a multi-line string or array
 * (`inside`: never a header nor a key).
 */
function scanLines(lines: readonly string[]): { header: string | null; inside: boolean }[] {
  let inString: '"""' | "'''" | null = null;
  let depth = 0;
  return lines.map((line) => {
    const atStart = inString === null && depth === 0;
    const match = atStart ? HEADER.exec(line) : null;
    if (match) return { header: canonicalName(match[2]!), inside: false };
    // Follow multi-line strings and the brackets of multi-line arrays through the line, skipping one-line strings and comments.
    for (let i = 0; i < line.length; i++) {
      if (inString) {
        if (line.startsWith(inString, i)) {
          inString = null;
          i += 2;
        } else if (line[i] === '\\' && inString === '"""') i++;
        continue;
      }
      const char = line[i]!;
      if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
        inString = line.slice(i, i + 3) as '"""' | "'''";
        i += 2;
      } else if (char === '"' || char === "'") {
        const close = char === '"' ? /^"(?:[^"\\]|\\.)*"/ : /^'[^']*'/;
        const quoted = close.exec(line.slice(i));
        i += quoted ? quoted[0].length - 1 : line.length;
      } else if (char === '#') break;
      else if (char === '[' || char === '{') depth++;
      else if (char === ']' || char === '}') depth = Math.max(0, depth - 1);
    }
    return { header: null, inside: !atStart };
  });
}

/** What to set: top-level keys (bare names) with their TOML values, and one table's whole body. */
export interface TomlEdit {
  topLevel: Record<string, string>;
  table: { name: string; body: string[] };
}

/**
 * Applies `edit` to `text`: each top-level key is replaced where it stands (a one-line value) or added at the end of the
 * top-level part; the table is replaced where it stands (its header up to the next header) or added at the end. Comments,
 * order and every other table stay as they were.
 */
export function editToml(text: string, edit: TomlEdit): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const scanned = scanLines(lines);
  const firstHeader = scanned.findIndex((line) => line.header !== null);
  const topEnd = firstHeader === -1 ? lines.length : firstHeader;
  const out = [...lines];
  // Top-level keys: replace in place, or collect the missing ones.
  const missing: string[] = [];
  for (const [key, value] of Object.entries(edit.topLevel)) {
    const pattern = new RegExp(`^\\s*${key}\\s*=`);
    const at = out.slice(0, topEnd).findIndex((line, index) => !scanned[index]!.inside && pattern.test(line));
    if (at === -1) missing.push(`${key} = ${value}`);
    else out[at] = `${key} = ${value}`;
  }
  if (missing.length > 0) {
    // After the last non-blank top-level line (before the first table), with a blank line before that table.
    let insertAt = topEnd;
    while (insertAt > 0 && out[insertAt - 1]!.trim() === '') insertAt--;
    const spacer = topEnd < out.length && insertAt === topEnd ? [''] : [];
    out.splice(insertAt, 0, ...missing, ...spacer);
  }
  // The table: its header and the lines up to the next header (blank lines before that header stay outside it).
  const rescanned = scanLines(out);
  const tableAt = rescanned.findIndex((line) => line.header === edit.table.name);
  const tableLines = [`[${edit.table.name}]`, ...edit.table.body];
  if (tableAt !== -1) {
    let end = rescanned.findIndex((line, index) => index > tableAt && line.header !== null);
    if (end === -1) end = out.length;
    while (end > tableAt + 1 && out[end - 1]!.trim() === '') end--;
    out.splice(tableAt, end - tableAt, ...tableLines);
  } else {
    while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
    out.push(...(out.length > 0 ? [''] : []), ...tableLines);
  }
  return `${out.join(newline)}${newline}`;
}

/** The one-line string value of a key in the top-level part or in a table (`null` when absent or not a plain string). */
export function readTomlString(text: string, table: string | null, key: string): string | null {
  const lines = text.split(/\r?\n/);
  const scanned = scanLines(lines);
  let current: string | null = null;
  const pattern = new RegExp(`^\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|'([^']*)')\\s*(#.*)?$`);
  for (let i = 0; i < lines.length; i++) {
    if (scanned[i]!.header !== null) {
      current = scanned[i]!.header;
      continue;
    }
    if (current !== table || scanned[i]!.inside) continue;
    const match = pattern.exec(lines[i]!);
    if (match) return match[2] ?? match[1]!.replace(/\\(["\\])/g, '$1');
  }
  return null;
}

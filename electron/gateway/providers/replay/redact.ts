// `--record-redact`: JSON paths whose values, and header names whose headers, never reach a cassette; each redacted value is also hidden wherever else it appears (any encoding).
import type { HiddenSecret } from '../../../../shared/secret-scrub.ts';
import { mapPath, parsePath } from './json-paths.ts';

/** What a redacted value is written as. */
export const REDACTED = '[redacted]';

/** Shortest redacted value also hidden elsewhere in the cassette (a shorter one would hide ordinary words). */
const MIN_HIDDEN_CHARS = 4;

export class Redaction {
  private readonly paths: string[];
  private readonly headers: Set<string>;
  /** Each entry is a JSON path (`$.user`, `messages[0].content`, has `.` or `[` or starts with `$`) or a header name. */
  constructor(entries: readonly string[]) {
    const isPath = (entry: string) => /^\$|[.[]/.test(entry);
    this.paths = entries.filter(isPath);
    for (const path of this.paths) parsePath(path); // a malformed path is refused at start
    this.headers = new Set(entries.filter((entry) => !isPath(entry)).map((name) => name.toLowerCase()));
  }

  /** `body` with every configured path's value replaced by REDACTED, and the string values so replaced (to hide elsewhere). */
  body(body: unknown): { body: unknown; values: string[] } {
    const values: string[] = [];
    let out = body;
    for (const path of this.paths)
      out = mapPath(out, path, (old) => {
        collectStrings(old, values);
        return REDACTED;
      });
    return { body: out, values };
  }

  /** Whether a header of this name is left out. */
  header(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  /** The values to hide wherever they appear. */
  static hidden(values: readonly string[]): HiddenSecret[] {
    return [...new Set(values)].filter((value) => value.length >= MIN_HIDDEN_CHARS).map((secret) => ({ secret, hint: REDACTED }));
  }
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) collectStrings(item, into);
}

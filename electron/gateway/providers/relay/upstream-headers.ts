// The headers of an upstream answer as undici's request API parsed them, read the way the relay reads them: lighter per call than a WHATWG Headers copy, with the same values.
/** Header fields as undici's request API gives them: names in lower case, a repeated header as an array. */
type RawFields = Record<string, string | string[] | undefined>;

/** What the relay reads of an answer's headers (a WHATWG `Headers` has the same shape). */
export interface HeaderView {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(visit: (value: string, name: string) => void): void;
  /** `forEach` over the headers whose name `test` matches only (the others are neither sorted nor read). */
  forEachMatching(test: RegExp, visit: (value: string, name: string) => void): void;
}

/** HTTP's white space around a field value (what a WHATWG Headers strips). */
const OUTER_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** `value` without HTTP white space at its ends (the same string when it has none, the usual case). */
function trimmed(value: string): string {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const space = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
  return value !== '' && (space(first) || space(last)) ? value.replace(OUTER_SPACE, '') : value;
}

/**
 * An upstream answer's headers over undici's parsed fields, without copying them: `get` joins a repeated header with
 * ", " and `forEach` visits the names in order, as a WHATWG Headers does (relay reads no `set-cookie`, the one header a
 * Headers lists value by value). Names given to `get`, `has` and `delete` are in lower case.
 */
export class UpstreamHeaders implements HeaderView {
  private readonly fields: RawFields;
  constructor(fields: RawFields) {
    this.fields = fields;
  }

  get(name: string): string | null {
    const value = this.fields[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.map(trimmed).join(', ') : trimmed(value);
  }

  has(name: string): boolean {
    return this.fields[name] !== undefined;
  }

  delete(name: string): void {
    delete this.fields[name];
  }

  forEach(visit: (value: string, name: string) => void): void {
    this.visit(Object.keys(this.fields), visit);
  }

  forEachMatching(test: RegExp, visit: (value: string, name: string) => void): void {
    const names: string[] = [];
    for (const name in this.fields) if (test.test(name)) names.push(name);
    this.visit(names, visit);
  }

  /** Visits `names` in order with their values (a name whose value is gone is skipped). */
  private visit(names: string[], visit: (value: string, name: string) => void): void {
    if (names.length > 1) names.sort();
    for (const name of names) {
      const value = this.get(name);
      if (value !== null) visit(value, name);
    }
  }
}

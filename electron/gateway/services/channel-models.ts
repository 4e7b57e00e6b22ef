// A channel's model list: `name`, `local=upstream` (renamed on the way out and back) or `*` (every model), comma-separated.
import { invalid } from '../errors.ts';

/** One entry of a model list: the name callers use and the one sent upstream (`*`: any model, sent as asked). */
export interface ModelEntry {
  local: string;
  upstream: string;
}

/** Characters a model name may not hold: separators of the list, whitespace and control characters. */
const BAD_NAME = /[,=\s\p{Cc}]/u;
const NAME_LIMIT = 200;

/** Parses and checks a model list; throws a 400 naming `models` and the bad entry. */
export function parseModels(text: string): ModelEntry[] {
  const entries: ModelEntry[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [local = '', upstream, extra] = entry.split('=').map((part) => part.trim());
    const bad = (why: string) => invalid(`models: "${entry.slice(0, NAME_LIMIT)}" ${why}`, 'models');
    if (extra !== undefined) throw bad('has more than one "=" (write local=upstream)');
    if (local === '' || upstream === '') throw bad('needs a name on both sides of "=" (write local=upstream)');
    for (const name of [local, upstream ?? local]) {
      if (name.length > NAME_LIMIT) throw bad(`is longer than ${NAME_LIMIT} characters`);
      if (BAD_NAME.test(name)) throw bad('holds a space or control character');
    }
    if (local === '*' && upstream !== undefined) throw bad('renames "*": write * alone to serve every model as asked');
    if (upstream === '*') throw bad('names "*" as the upstream model');
    if (entries.some((item) => item.local === local)) throw bad('is listed twice');
    entries.push({ local, upstream: upstream ?? local });
  }
  if (entries.length === 0) throw invalid('models must name at least one model (or * for every model)', 'models');
  return entries;
}

/** Stored lists parsed before, by their text (bounded: emptied when full). */
const parsedLists = new Map<string, readonly ModelEntry[]>();
const PARSED_LISTS_LIMIT = 256;

/** A stored (already checked) list, parsed once per text instead of on every call that routes by it; never to be changed by the caller. */
export function storedModels(text: string): readonly ModelEntry[] {
  let entries = parsedLists.get(text);
  if (entries === undefined) {
    entries = Object.freeze(parseModels(text).map((entry) => Object.freeze(entry)));
    if (parsedLists.size >= PARSED_LISTS_LIMIT) parsedLists.clear();
    parsedLists.set(text, entries);
  }
  return entries;
}

/** The list in its stored form: entries trimmed, joined by ", ". */
export function formatModels(entries: readonly ModelEntry[]): string {
  return entries.map((item) => (item.local === item.upstream ? item.local : `${item.local}=${item.upstream}`)).join(', ');
}

/** The model sent upstream for `model`, or undefined when the list does not serve it (an exact entry wins over `*`). */
export function upstreamModelOf(entries: readonly ModelEntry[], model: string): string | undefined {
  const exact = entries.find((item) => item.local === model && item.local !== '*');
  if (exact) return exact.upstream;
  return entries.some((item) => item.local === '*') ? model : undefined;
}

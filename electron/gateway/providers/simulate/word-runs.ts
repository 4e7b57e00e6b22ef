// Finds runs of characters (words) in user-sized text with regular expressions that never look at more than a bounded slice at once, so an unbroken word of millions of characters cannot overflow the regex engine's stack.

/** Most characters one regular expression match may span; a longer run is found slice by slice. */
const RUN_SLICE = 4096;

/** A kind of run (made by `runPattern`): the expression of its start and first slice, and the one of each further slice. */
export interface RunPattern {
  start: RegExp;
  more: RegExp;
}

/** The run pattern of `first` then any number of `rest` (both a character class such as `[\p{L}\p{N}]`), as `/first rest*\/gu` matches. */
export function runPattern(first: string, rest: string): RunPattern {
  return { start: new RegExp(`${first}${rest}{0,${RUN_SLICE - 1}}`, 'gu'), more: new RegExp(`${rest}{1,${RUN_SLICE}}`, 'uy') };
}

/**
 * Calls `found(start, end)` for each run of `pattern` in `text`, in order, exactly where `/first rest*\/gu` would
 * match; stops early when `found` returns false. Linear in the text, with no match longer than RUN_SLICE characters.
 */
export function eachRun(text: string, pattern: RunPattern, found: (start: number, end: number) => boolean | void): void {
  const { start, more } = pattern;
  start.lastIndex = 0;
  for (let match = start.exec(text); match !== null; match = start.exec(text)) {
    let end = start.lastIndex;
    more.lastIndex = end;
    while (more.test(text)) end = more.lastIndex;
    if (found(match.index, end) === false) return;
    start.lastIndex = end;
  }
}

/** Every run of `pattern` in `text`, as strings (`text.match(/first rest*\/gu) ?? []`). */
export function runsOf(text: string, pattern: RunPattern): string[] {
  const runs: string[] = [];
  eachRun(text, pattern, (start, end) => void runs.push(text.slice(start, end)));
  return runs;
}

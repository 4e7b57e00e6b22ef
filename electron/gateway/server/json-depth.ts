// Measures how deeply a JSON text nests, without recursion, so a hostile body is refused before JSON.parse builds it.

/** Deepest nesting of objects and arrays a JSON request body or client event may have; deeper ones are a 400. */
export const MAX_JSON_DEPTH = 64;

/** Character codes the scan looks at. */
const CHAR = { quote: 0x22, backslash: 0x5c, openObject: 0x7b, openArray: 0x5b, closeObject: 0x7d, closeArray: 0x5d } as const;

/**
 * True when `text` opens more than `max` objects or arrays inside one another. One pass over the text,
 * counting brackets outside strings; it does not validate the JSON (JSON.parse does that next).
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === CHAR.quote) {
      index = stringEnd(text, index);
    } else if (code === CHAR.openObject || code === CHAR.openArray) {
      depth += 1;
      if (depth > max) return true;
    } else if ((code === CHAR.closeObject || code === CHAR.closeArray) && depth > 0) {
      depth -= 1;
    }
  }
  return false;
}

/** Index of the quote closing the string opened at `open` (the text's end when there is none); long strings are skipped natively. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === CHAR.backslash) backslashes += 1;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}

/** The message of the 400 for a body or event nested too deeply. */
export function tooDeepMessage(what: string): string {
  return `${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; flatten it.`;
}

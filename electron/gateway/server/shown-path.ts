// The path of a request URL as an error message may echo it: never the query, never a credential-like piece, never long.

/** Longest part of a path echoed in an error message. */
export const SHOWN_PATH_LIMIT = 120;

/** The path of `url` without its query, `key=…`/`token=…`-like pieces masked, cut at SHOWN_PATH_LIMIT characters. */
export function shownPath(url: string): string {
  const path = (url.split('?', 1)[0] ?? '').replace(/((?:key|token|secret|password)[^=/&;]*=)[^/&;]*/gi, '$1***');
  return path.length > SHOWN_PATH_LIMIT ? `${path.slice(0, SHOWN_PATH_LIMIT)}…` : path;
}

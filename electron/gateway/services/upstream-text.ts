// Text an upstream wrote that the gateway keeps (a review's failure reason, a refresh error, a 3D task's failure): bounded, so a broken or hostile upstream cannot fill SQLite and every answer that shows it.
/** Most characters kept of one such text. */
export const UPSTREAM_TEXT_LIMIT = 1000;

/** `text` as kept: whole up to UPSTREAM_TEXT_LIMIT characters, else cut there (not inside a surrogate pair) and marked with `…`. */
export function keptUpstreamText(text: string): string {
  if (text.length <= UPSTREAM_TEXT_LIMIT) return text;
  let end = UPSTREAM_TEXT_LIMIT - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

// Tells which API family (and so which error protocol) a request path belongs to.

/** The caller protocols whose error shapes differ (ARCHITECTURE.md rule 4). */
export type Protocol = 'portrait' | 'openai' | 'anthropic' | 'gemini';

/** The protocol of a request URL (path with optional query). */
export function protocolOf(url: string): Protocol {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (isPortraitUrl(path)) return 'portrait';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path.startsWith('/v1beta/') || /^\/v1\/models\/[^/]+:[A-Za-z]+$/.test(path)) return 'gemini';
  return 'openai';
}

/** True when `url` (path with optional query) is the portrait library's, as `protocolOf(url) === 'portrait'` is, without the other families' checks. */
export function isPortraitUrl(url: string): boolean {
  return url.startsWith('/v1/portrait') && (url.length === 12 || url[12] === '/' || url[12] === '?');
}

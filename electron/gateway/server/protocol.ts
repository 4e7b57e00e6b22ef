// Tells which API family (and so which error protocol) a request path belongs to.

/** The caller protocols whose error shapes differ (ARCHITECTURE.md rule 4). */
export type Protocol = 'portrait' | 'openai' | 'anthropic' | 'gemini';

/** The protocol of a request URL (path with optional query). */
export function protocolOf(url: string): Protocol {
  const path = url.split('?', 1)[0] ?? '';
  if (path === '/v1/portrait' || path.startsWith('/v1/portrait/')) return 'portrait';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path.startsWith('/v1beta/') || /^\/v1\/models\/[^/]+:[A-Za-z]+$/.test(path)) return 'gemini';
  return 'openai';
}

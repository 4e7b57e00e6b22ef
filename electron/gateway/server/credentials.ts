// Finds the API token a request carries: Authorization Bearer, x-api-key, x-goog-api-key, or the `key` query parameter.
import type { IncomingHttpHeaders } from 'node:http';

/** The first credential found, in the order Bearer, x-api-key, x-goog-api-key, ?key=. */
export function credentialOf(headers: IncomingHttpHeaders, query: unknown): string | undefined {
  const authorization = headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  for (const name of ['x-api-key', 'x-goog-api-key'] as const) {
    const value = headers[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  const key = (query as Record<string, unknown> | undefined)?.['key'];
  return typeof key === 'string' && key !== '' ? key : undefined;
}

// Finds the API token a request carries: Authorization Bearer, x-api-key, x-goog-api-key, the `key` query parameter, or a WebSocket subprotocol.
import type { IncomingHttpHeaders } from 'node:http';

/** Prefix of the WebSocket subprotocol that carries an API key (`openai-insecure-api-key.<key>`). */
export const SUBPROTOCOL_KEY_PREFIX = 'openai-insecure-api-key.';

/** The first credential found, in the order Bearer, x-api-key, x-goog-api-key, ?key=, then the WebSocket subprotocol. */
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
  if (typeof key === 'string' && key !== '') return key;
  // Browsers cannot set headers on a WebSocket, so realtime clients offer the key as a subprotocol.
  const protocols = headers['sec-websocket-protocol'];
  const offered = typeof protocols === 'string' ? protocols.split(',').map((item) => item.trim()) : [];
  const carried = offered.find((item) => item.startsWith(SUBPROTOCOL_KEY_PREFIX));
  return carried ? carried.slice(SUBPROTOCOL_KEY_PREFIX.length) || undefined : undefined;
}

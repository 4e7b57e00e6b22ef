// Checks the console's admin token (the data dir's kept console secret, else a per-run token): `Authorization: Bearer` on HTTP, the token subprotocol on the admin WebSocket.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ADMIN_WS_TOKEN_PREFIX } from '../../../shared/admin-events.ts';
import { GatewayError } from '../errors.ts';

/** The admin token a request presents, from its Bearer header or, for a WebSocket upgrade, its subprotocols. */
export function presentedAdminToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (match) return match[1];
  const protocols = headers['sec-websocket-protocol'];
  if (typeof protocols !== 'string') return undefined;
  const carrier = protocols
    .split(',')
    .map((item) => item.trim())
    .find((item) => item.startsWith(ADMIN_WS_TOKEN_PREFIX));
  return carrier?.slice(ADMIN_WS_TOKEN_PREFIX.length);
}

/** Compares in constant time (over digests, so lengths do not leak either). */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Throws 401 unless the request carries the admin token. */
export function requireAdminToken(headers: IncomingHttpHeaders, expected: string): void {
  const presented = presentedAdminToken(headers);
  if (presented === undefined || presented === '') {
    throw new GatewayError(
      'unauthorized',
      'Missing admin token: open the console through the URL that `gatehouse serve` printed (it carries ?admin_token=…)',
    );
  }
  if (!sameSecret(presented, expected)) {
    throw new GatewayError(
      'unauthorized',
      'Wrong admin token: this console address is from an earlier run of the gateway (a per-run address), or its console secret was rotated; open the console URL that the latest `gatehouse serve` printed',
    );
  }
}

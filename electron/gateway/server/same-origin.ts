// Origin checks for the console's admin API and socket (same origin only) and for realtime upgrades from browsers (same origin or a listed CORS origin).
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors.ts';
import { isAllowedOrigin } from './cors.ts';

/** The origin a browser page served by this listener has: the listener's scheme and the request's Host (checked already by the Host hook). */
export function ownOriginOf(request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  if (host === undefined) return undefined;
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The request's Origin header in normalized form (`null` for opaque origins such as file:// pages); undefined when absent. */
function originHeaderOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return undefined;
  try {
    return new URL(origin).origin;
  } catch {
    return 'null';
  }
}

/** True when the request carries no Origin (not a browser page) or the Origin of this very listener. */
export function isSameOrigin(request: FastifyRequest): boolean {
  const origin = originHeaderOf(request);
  return origin === undefined || origin === ownOriginOf(request);
}

/** Throws 403 when a browser page of another origin sends the request (admin API and admin socket: same origin only, token or not). */
export function requireSameOrigin(request: FastifyRequest): void {
  if (isSameOrigin(request)) return;
  throw new GatewayError(
    'forbidden',
    `Origin ${String(request.headers.origin).slice(0, 100)} may not use the console's admin API: it answers its own origin only`,
  );
}

/** Throws 403 for a WebSocket upgrade from a browser page that is neither this gateway's own origin nor listed in the CORS origins. */
export function requireSocketOrigin(request: FastifyRequest, corsOrigins: readonly string[]): void {
  const origin = originHeaderOf(request);
  if (isSameOrigin(request) || (origin !== undefined && origin !== 'null' && isAllowedOrigin(origin, corsOrigins))) return;
  throw new GatewayError(
    'forbidden',
    `Origin ${String(request.headers.origin).slice(0, 100)} may not open this socket from a browser: add it to the CORS origins (Settings page, --cors-origins or GATEHOUSE_CORS_ORIGINS)`,
  );
}

// CORS for browser clients of the API: allowed origins get their headers and preflights; the console and admin API stay same-origin only.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from './protocol.ts';
import { ADMIN_API_PREFIX, CONSOLE_PATH } from '../../../shared/console-address.ts';
import { GatewayError } from '../errors.ts';
import type { SyncStep } from './sync-hook.ts';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Headers the SDKs send when the preflight does not list them (it always does in browsers). */
const DEFAULT_ALLOWED_HEADERS = 'authorization, content-type, x-api-key, x-goog-api-key, anthropic-version, anthropic-beta, openai-beta';
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

/** Paths that never answer other origins: the console and its admin API. */
const isPrivatePath = (path: string) =>
  path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`) || path.startsWith(`${ADMIN_API_PREFIX}/`) || path.startsWith('/admin/');

/** True when `origin` may call the API: listed exactly, or `*` is listed. */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  return allowed.includes('*') || allowed.includes(origin.toLowerCase());
}

/** The CORS `onRequest` step; `allowed()` is read on every request, so the Settings page can change the list while the server runs. */
export function corsStep(allowed: () => readonly string[]): SyncStep {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    // Most calls (SDKs, CLIs) send no Origin: their path is not even looked at.
    if (typeof origin !== 'string' || isPrivatePath(pathOf(request))) return;
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    reply.header('vary', 'Origin');
    if (!isAllowedOrigin(origin, allowed())) {
      if (!preflight) return; // Same-origin or non-browser callers send Origin too; without CORS headers a browser keeps the answer from the page.
      throw new GatewayError(
        'forbidden',
        `Origin ${origin} may not call this gateway from a browser: add it to the CORS origins (Settings page, --cors-origins or GATEHOUSE_CORS_ORIGINS)`,
      );
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', '*');
    if (!preflight) return;
    const requested = request.headers['access-control-request-headers'];
    reply.header('access-control-allow-methods', ALLOWED_METHODS);
    reply.header(
      'access-control-allow-headers',
      typeof requested === 'string' && requested.trim() !== '' ? requested : DEFAULT_ALLOWED_HEADERS,
    );
    reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
    // Chrome's Private Network Access asks before a public page may reach a loopback server.
    if (request.headers['access-control-request-private-network'] === 'true') reply.header('access-control-allow-private-network', 'true');
    return reply.status(204).send();
  };
}

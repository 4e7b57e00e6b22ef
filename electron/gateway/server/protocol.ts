// Tells which API family (and so which error protocol) a request path belongs to, and the path of a request (its URL without the query), split once per request.
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The path of `url`, once `pathOf` split it (decorated as undefined on every request, so each keeps one shape). */
    urlPath: string | undefined;
  }
}

/** The path of a URL: what comes before its query (the whole URL when it has none). */
export function pathOfUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The path of the request's URL, split from the query once per request: every step and route that reads it shares it. */
export function pathOf(request: FastifyRequest): string {
  return (request.urlPath ??= pathOfUrl(request.url));
}

/** The query of the request's URL with its `?` (empty when it has none). */
export function queryOf(request: FastifyRequest): string {
  return request.url.slice(pathOf(request).length);
}

/** The query of the request's URL without its `?`, up to a second `?` (as `url.split('?', 2)` gives it); empty when it has none. */
export function searchOf(request: FastifyRequest): string {
  const path = pathOf(request);
  const { url } = request;
  if (path.length === url.length) return '';
  const end = url.indexOf('?', path.length + 1);
  return url.slice(path.length + 1, end === -1 ? undefined : end);
}

/** The caller protocols whose error shapes differ (ARCHITECTURE.md rule 4). */
export type Protocol = 'portrait' | 'openai' | 'anthropic' | 'gemini';

/** The protocol of a request URL (path with optional query; the path alone, `pathOf`, when at hand). */
export function protocolOf(url: string): Protocol {
  const path = pathOfUrl(url);
  if (isPortraitUrl(path)) return 'portrait';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path.startsWith('/v1beta/') || /^\/v1\/models\/[^/]+:[A-Za-z]+$/.test(path)) return 'gemini';
  return 'openai';
}

/** True when `url` (path with optional query) is the portrait library's, as `protocolOf(url) === 'portrait'` is, without the other families' checks. */
export function isPortraitUrl(url: string): boolean {
  return url.startsWith('/v1/portrait') && (url.length === 12 || url[12] === '/' || url[12] === '?');
}

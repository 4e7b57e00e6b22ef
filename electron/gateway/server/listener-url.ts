// The base URL of the listener a request came in on, taken from the gateway's own listening addresses (never from the request's Host).
import type { FastifyRequest } from 'fastify';

/** The gateway's listening URLs, as the runtime info keeps them (null until listening; tlsUrl null without TLS). */
export interface ListenerUrls {
  readonly url: string | null;
  readonly tlsUrl: string | null;
}

/** `runtime.tlsUrl` for a request on the TLS listener, else `runtime.url`: the base of absolute URLs the gateway hands out (generated files). */
export function listenerUrlOf(request: FastifyRequest, runtime: ListenerUrls): string {
  const url = request.protocol === 'https' ? (runtime.tlsUrl ?? runtime.url) : (runtime.url ?? runtime.tlsUrl);
  if (url === null) throw new Error('The gateway has no listening URL yet');
  return url;
}

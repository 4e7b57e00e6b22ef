// The retry hint the official SDKs and Claude Code read (`x-should-retry`): put on every error answer, so a client stops at once where a retry cannot help.
import type { FastifyInstance } from 'fastify';
import { ConfigurationError, type GatewayError } from '../errors.ts';

/** The header the OpenAI and Anthropic SDKs obey before their own status rules ("true" or "false"). */
export const RETRY_HINT_HEADER = 'x-should-retry';

/** Statuses a later try of the same call may get past: a timeout, a rate limit, an overload, a passing server failure. */
function retryHelps(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/** The hint of an error answer with `status` (none below 400); `error`: the gateway's own failure, when it is one. */
export function retryHint(status: number, error?: GatewayError): 'true' | 'false' | undefined {
  if (status < 400) return undefined;
  if (error instanceof ConfigurationError) return 'false';
  return retryHelps(status) ? 'true' : 'false';
}

/** `headers` of a relayed answer with `status`, with the hint added unless the upstream gave its own. */
export function withRetryHint<T extends Record<string, string | number | string[] | undefined>>(status: number, headers: T): T {
  const hint = retryHint(status);
  if (hint === undefined || Object.keys(headers).some((name) => name.toLowerCase() === RETRY_HINT_HEADER)) return headers;
  return { ...headers, [RETRY_HINT_HEADER]: hint };
}

/** Every error answer Fastify sends (refusals, unknown paths, rendered errors) carries the hint, unless one was set already. */
export function installRetryHints(app: FastifyInstance): void {
  // The callback form: an async onSend hook would cost every answer a promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const hint = retryHint(reply.statusCode);
    if (hint !== undefined && !reply.hasHeader(RETRY_HINT_HEADER)) reply.header(RETRY_HINT_HEADER, hint);
    done(null, payload);
  });
}

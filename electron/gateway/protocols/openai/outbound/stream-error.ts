// An error event inside an OpenAI-style chat stream (`data: {"error": …}`) read into the GatewayError it stands for, with the HTTP status it would have had.
import type { GatewayError } from '../../../errors.ts';
import { isObject } from '../../fields.ts';
import { upstreamError } from '../../neutral/upstream-errors.ts';

/** The status an error `code` or `type` stands for (OpenAI's names, and the ones Gatehouse and common OpenAI-compatible servers use). */
const STATUS_OF_NAME: Record<string, number> = {
  invalid_request_error: 400,
  invalid_api_key: 401,
  authentication_error: 401,
  permission_denied: 403,
  permission_error: 403,
  not_found: 404,
  not_found_error: 404,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  upstream_failed: 502,
  upstream_error: 502,
  service_unavailable: 503,
  overloaded: 529,
};

/**
 * The error of a stream's error event: a numeric `code` that is an HTTP error status (vLLM, OpenRouter) is kept, else the
 * status named by its `code` or `type`; an error nothing names is a 502 (the upstream failed).
 */
export function streamErrorOf(error: unknown): GatewayError {
  const fields = isObject(error) ? error : { message: typeof error === 'string' ? error : undefined };
  const code = fields['code'];
  const named = [code, fields['type']].map((name) => (typeof name === 'string' ? STATUS_OF_NAME[name] : undefined)).find(Boolean);
  const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : (named ?? 502);
  return upstreamError(status, { error: fields });
}

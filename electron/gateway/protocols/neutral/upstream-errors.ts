// Upstream error answers in any chat protocol (OpenAI, Anthropic, Gemini) read back into a GatewayError that keeps the upstream's status and message.
import { GatewayError, type ErrorKind } from '../../errors.ts';

/** The error kind of an upstream's HTTP status (the status itself is kept on the error). */
export function errorKindOfStatus(status: number): ErrorKind {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    case 500:
      return 'internal';
    case 503:
      return 'unavailable';
    case 529:
      return 'overloaded';
    default:
      return status >= 400 && status < 500 ? 'invalid_request' : 'upstream_failed';
  }
}

/** The message of an error body in any of the three shapes (`{error: {message}}`, `{type: "error", error: {message}}`, Gemini's `{error: {message, status}}`), or of a plain text body. */
export function upstreamMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() === '' ? undefined : body.trim().slice(0, 2000);
  const error = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['error'] : undefined;
  const message = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)['message'] : error;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/** The error an upstream's answer of `status` with `body` (parsed JSON, or its text) becomes for the caller, status kept. */
export function upstreamError(status: number, body: unknown): GatewayError {
  const message = upstreamMessageOf(body) ?? `The upstream answered HTTP ${status}.`;
  return new GatewayError(errorKindOfStatus(status), message, null, status);
}

// The error names each chat protocol gives each error kind (OpenAI type and code, Anthropic type, Gemini status), and the way back from a name to a kind.
import type { ErrorKind } from '../errors.ts';

/** OpenAI's error `type` of each kind. */
export const OPENAI_TYPE: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  not_found: 'invalid_request_error',
  unauthorized: 'invalid_request_error',
  forbidden: 'permission_error',
  upstream_failed: 'upstream_error',
  payload_too_large: 'invalid_request_error',
  rate_limited: 'rate_limit_exceeded',
  unavailable: 'server_error',
  overloaded: 'server_error',
  internal: 'server_error',
  not_implemented: 'invalid_request_error',
};

/** OpenAI's error `code` of each kind, where it has one. */
export const OPENAI_CODE: Partial<Record<ErrorKind, string>> = {
  not_found: 'not_found',
  unauthorized: 'invalid_api_key',
  forbidden: 'permission_denied',
  upstream_failed: 'upstream_failed',
  payload_too_large: 'payload_too_large',
  rate_limited: 'rate_limit_exceeded',
  unavailable: 'service_unavailable',
  overloaded: 'overloaded',
  not_implemented: 'not_implemented',
};

/** Anthropic's error `type` of each kind. */
export const ANTHROPIC_TYPE: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  not_found: 'not_found_error',
  unauthorized: 'authentication_error',
  forbidden: 'permission_error',
  upstream_failed: 'api_error',
  payload_too_large: 'request_too_large',
  rate_limited: 'rate_limit_error',
  unavailable: 'api_error',
  overloaded: 'overloaded_error',
  internal: 'api_error',
  not_implemented: 'invalid_request_error',
};

/** Gemini's (Google RPC) error `status` of each kind. */
export const GEMINI_STATUS: Record<ErrorKind, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  not_found: 'NOT_FOUND',
  unauthorized: 'UNAUTHENTICATED',
  forbidden: 'PERMISSION_DENIED',
  upstream_failed: 'UNAVAILABLE',
  payload_too_large: 'INVALID_ARGUMENT',
  rate_limited: 'RESOURCE_EXHAUSTED',
  unavailable: 'UNAVAILABLE',
  overloaded: 'UNAVAILABLE',
  internal: 'INTERNAL',
  not_implemented: 'UNIMPLEMENTED',
};

/** The kind an Anthropic error `type` names (a stream's `error` event); unknown types are upstream failures. */
export function kindOfAnthropicType(type: unknown): ErrorKind {
  if (type === 'overloaded_error') return 'overloaded';
  if (type === 'api_error') return 'internal';
  const found = (Object.keys(ANTHROPIC_TYPE) as ErrorKind[]).find((kind) => ANTHROPIC_TYPE[kind] === type);
  return found ?? 'upstream_failed';
}

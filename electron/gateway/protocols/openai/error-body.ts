// The OpenAI error body `{error: {message, type, param, code}}` of a GatewayError (HTTP answers, and failed batch lines).
import type { ErrorKind, GatewayError } from '../../errors.ts';

const OPENAI_TYPE: Record<ErrorKind, string> = {
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

const OPENAI_CODE: Partial<Record<ErrorKind, string>> = {
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

/** The OpenAI error body of `error`. */
export function openaiErrorBody(error: GatewayError) {
  return { error: { message: error.message, type: OPENAI_TYPE[error.kind], param: error.param, code: OPENAI_CODE[error.kind] ?? null } };
}

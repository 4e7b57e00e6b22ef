// Renders a GatewayError in the caller's protocol: portrait envelope, OpenAI, Anthropic or Gemini error shapes.
import { HTTP_STATUS, type ErrorKind, type GatewayError } from '../errors.ts';
import { openaiErrorBody } from '../protocols/openai/error-body.ts';
import type { Protocol } from './protocol.ts';

/** A rendered error: HTTP status and JSON body. */
export interface RenderedError {
  status: number;
  body: unknown;
}

const ANTHROPIC_TYPE: Record<ErrorKind, string> = {
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

const GEMINI_STATUS: Record<ErrorKind, string> = {
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

export function renderError(protocol: Protocol, error: GatewayError): RenderedError {
  const status = HTTP_STATUS[error.kind];
  switch (protocol) {
    case 'portrait': {
      // Business errors are HTTP 200 in the portrait envelope; only the auth layer uses 401/403.
      const authStatus = error.kind === 'unauthorized' || error.kind === 'forbidden' ? status : 200;
      return { status: authStatus, body: { success: false, message: error.message } };
    }
    case 'openai':
      return { status, body: openaiErrorBody(error) };
    case 'anthropic':
      return { status, body: { type: 'error', error: { type: ANTHROPIC_TYPE[error.kind], message: error.message } } };
    case 'gemini':
      return { status, body: { error: { code: status, message: error.message, status: GEMINI_STATUS[error.kind] } } };
  }
}

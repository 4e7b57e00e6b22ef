// Renders a GatewayError in the caller's protocol: portrait envelope, OpenAI, Anthropic or Gemini error shapes.
import { HTTP_STATUS, type GatewayError } from '../errors.ts';
import { ANTHROPIC_TYPE, GEMINI_STATUS } from '../protocols/error-names.ts';
import { openaiErrorBody } from '../protocols/openai/error-body.ts';
import type { Protocol } from './protocol.ts';

/** A rendered error: HTTP status and JSON body. */
export interface RenderedError {
  status: number;
  body: unknown;
}

export function renderError(protocol: Protocol, error: GatewayError): RenderedError {
  const status = error.status ?? HTTP_STATUS[error.kind];
  switch (protocol) {
    case 'portrait': {
      // Business errors are HTTP 200 in the portrait envelope; only the auth layer uses 401/403.
      const authStatus = error.kind === 'unauthorized' || error.kind === 'forbidden' ? status : 200;
      return { status: authStatus, body: { success: false, message: error.message } };
    }
    case 'openai':
      return { status, body: openaiErrorBody(error) };
    case 'anthropic':
      return {
        status,
        body: { type: 'error', error: { type: error.scripted?.type ?? ANTHROPIC_TYPE[error.kind], message: error.message } },
      };
    case 'gemini':
      return {
        status,
        body: { error: { code: status, message: error.message, status: error.scripted?.type ?? GEMINI_STATUS[error.kind] } },
      };
  }
}

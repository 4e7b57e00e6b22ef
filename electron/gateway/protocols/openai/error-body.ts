// The OpenAI error body `{error: {message, type, param, code}}` of a GatewayError (HTTP answers, and failed batch lines).
import type { GatewayError } from '../../errors.ts';
import { OPENAI_CODE, OPENAI_TYPE } from '../error-names.ts';

/** The OpenAI error body of `error`. */
export function openaiErrorBody(error: GatewayError) {
  const { type = OPENAI_TYPE[error.kind], code = OPENAI_CODE[error.kind] ?? null } = error.scripted ?? {};
  return { error: { message: error.message, type, param: error.param, code } };
}

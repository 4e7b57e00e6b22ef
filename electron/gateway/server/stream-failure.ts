// How a stream that fails after its headers went out tells the client, per protocol, and where the failure is reported.
import type { GatewayError } from '../errors.ts';
import type { NamedEvent } from '../protocols/named-event.ts';
import { renderError } from './error-render.ts';
import type { StreamFailure } from './sse.ts';

/**
 * The failure handling of a stream in `style`: OpenAI chat and completions send a data-only `{"error": …}` frame,
 * Responses an `error` event (type, code, message, param), Anthropic an `error` event with its error body, Gemini's
 * event stream (`alt=sse`) a data-only `{"error": {code, message, status}}` frame (its SDK throws it as an ApiError),
 * as the real APIs do; a Gemini JSON array stream ends unclosed. Unexpected failures go to `report` (the gateway's `error` event).
 */
export function streamFailure(style: 'openai' | 'responses' | 'anthropic' | 'gemini', report: (error: unknown) => void): StreamFailure {
  const errorEvent = ((): ((error: GatewayError) => NamedEvent) => {
    switch (style) {
      case 'openai':
        return (error) => ({ data: renderError('openai', error).body });
      case 'responses':
        return (error) => {
          const { body } = renderError('openai', error) as { body: { error: { code: string | null; param: string | null } } };
          return { name: 'error', data: { type: 'error', code: body.error.code, message: error.message, param: body.error.param } };
        };
      case 'anthropic':
        return (error) => ({ name: 'error', data: renderError('anthropic', error).body });
      case 'gemini':
        return (error) => ({ data: renderError('gemini', error).body });
    }
  })();
  return { report, errorEvent };
}

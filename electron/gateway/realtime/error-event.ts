// The `error` server event a session sends for a problem: a client event it cannot carry out, a gateway refusal, or an unexpected failure.
import { GatewayError } from '../errors.ts';
import { renderError } from '../server/error-render.ts';
import { ClientEventError } from './fields.ts';

/**
 * The `error` field of the `error` event answering `error` (caused by the client event `eventId`, when it had one): a
 * client-event problem with its code and param, a GatewayError as the OpenAI API renders it, anything else a generic
 * `server_error` (`report` is told of it: it is a bug).
 */
export function errorEventOf(error: unknown, eventId: string | null, report: (error: unknown) => void): Record<string, unknown> {
  if (error instanceof ClientEventError) {
    return { type: 'invalid_request_error', code: error.code, message: error.message, param: error.param, event_id: eventId };
  }
  if (error instanceof GatewayError) {
    const { body } = renderError('openai', error) as { body: { error: Record<string, unknown> } };
    return { ...body.error, event_id: eventId };
  }
  report(error);
  return {
    type: 'server_error',
    code: 'server_error',
    message: 'The simulated session failed; see the gateway log.',
    param: null,
    event_id: eventId,
  };
}

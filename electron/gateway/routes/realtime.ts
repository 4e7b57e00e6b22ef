// GET /v1/realtime: upgrades to a WebSocket running a realtime session (on the HTTP and the TLS listener), simulated or relayed whole to a channel.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { wantsBeta } from '../realtime/event-names.ts';
import { RelayedHolds } from '../realtime/relayed-holds.ts';
import { RealtimeSession } from '../realtime/session.ts';
import { guarded } from '../safe-events.ts';
import { callOfSocket } from '../server/call-context.ts';
import { credentialOf } from '../server/credentials.ts';
import { renderError } from '../server/error-render.ts';
import { requireSocketOrigin } from '../server/same-origin.ts';
import { paceOf } from '../server/faults.ts';
import { GatewayError } from '../errors.ts';
import type { Principal } from '../services/tokens.ts';
import { ChatMetering, chatBillOf } from '../services/chat-metering.ts';
import type { RelayedUsage } from '../providers/types.ts';
import { DEFAULT_OUTPUT_BOUND } from '../services/usage-bounds.ts';

/** The model of a session opened without `?model=`. */
export const DEFAULT_REALTIME_MODEL = 'sim-realtime';
/** Close code after a refusal sent as an `error` event (the code OpenAI's realtime API closes such sockets with). */
const REFUSED_CLOSE_CODE = 3000;

export async function realtimeRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, tokens, clock, events, providers, runtime } = options.context;
  const metering = new ChatMetering(billing);
  // A browser page may open the socket only from this gateway's own origin or a listed CORS origin: refused with 403 before the upgrade.
  const onRequest = async (request: FastifyRequest) => requireSocketOrigin(request, runtime.corsOrigins);
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/v1/realtime',
    { websocket: true, config: { socketAuth: true }, onRequest },
    (socket, request) => {
      // The credential stays in this closure (memory only) to re-check quota and revocation before each response.
      const credential = credentialOf(request.headers, request.query);
      let principal: Principal;
      try {
        principal = (request.principal as Principal | null) ?? tokens.authenticate(credential);
        if (request.query.intent !== undefined || request.query.call_id !== undefined) {
          throw new GatewayError(
            'invalid_request',
            'Transcription-only sessions (?intent=) and calls (?call_id=) are not simulated; open a model session with ?model=.',
            'intent',
          );
        }
      } catch (error) {
        refuse(socket, error);
        return;
      }
      const model = request.query.model || DEFAULT_REALTIME_MODEL;
      const pace = paceOf(request);
      const call = callOfSocket(request, socket, principal, 'realtime', '/v1/realtime');
      let bundle: ReturnType<typeof providers.for>;
      try {
        // A token limited to other models is refused here, as an error event.
        bundle = providers.for(call, model);
      } catch (error) {
        refuse(socket, error);
        return;
      }
      const { chat, realtime, realtimeRelay } = bundle;
      const report = (error: unknown) => void events.emit('error', error);
      if (realtimeRelay) {
        // A relayed session runs upstream: frames pass both ways, each response billed by the upstream's usage.
        const bill = { principal, endpoint: '/v1/realtime', model };
        // What each response may cost is held until its `response.done` was charged, by the response's id (see
        // RelayedHolds): a client's from its `response.create`, one the upstream starts on its own from its start.
        // Like a simulated session, a caller who may no longer spend, or not that much, gets an error event instead of a
        // response. One the upstream starts on its own is cancelled; when the token may no longer spend at all, the
        // session ends too (its every turn would cost the upstream again).
        const holds = new RelayedHolds((eventId, response) => {
          try {
            tokens.authenticate(credential);
          } catch (error) {
            const { text, reason } = renderedError(error, eventId);
            return { event: text, close: { code: REFUSED_CLOSE_CODE, reason } };
          }
          try {
            return billing.reserve(principal, () => ({ model, inputTokens: 0, outputTokens: relayedOutputLimit(response) }));
          } catch (error) {
            return { event: errorEvent(error, eventId) };
          }
        });
        const charge = guarded(report, (usage: RelayedUsage, responseId?: string) => {
          try {
            metering.chargeRelayed(bill, usage, () => 0);
          } finally {
            holds.settled(responseId);
          }
        });
        const admit = (eventId: string | null, response: Record<string, unknown> | undefined) => holds.admit(eventId, response);
        const started = (responseId: string, response: Record<string, unknown> | undefined) => holds.started(responseId, response);
        const rejected = (eventId: string) => holds.rejected(eventId);
        socket.once('close', () => holds.close());
        realtimeRelay
          .open(socket, { model, protocols: offeredProtocols(request.headers), charge, admit, started, rejected, report }, call)
          .catch((error: unknown) => {
            if (!(error instanceof GatewayError)) report(error);
            if (socket.readyState === socket.OPEN) refuse(socket, error);
          });
        return;
      }
      const session = new RealtimeSession({
        model,
        beta: wantsBeta(request.headers),
        send: (text) => {
          if (socket.readyState === socket.OPEN) socket.send(text);
        },
        authorize: () => void tokens.authenticate(credential),
        charge: (work) => billing.charge(principal, { endpoint: '/v1/realtime', ...work }),
        reserve: (estimate) => billing.reserve(principal, estimate),
        // Text turns translated to another kind's channels are billed by the upstream's usage of each chat call, bounded.
        ...(bundle.mode === 'relay' && {
          chargeRelayed: (request, result) =>
            metering.chargeResult(
              chatBillOf(call, principal, '/v1/realtime', model, () => [request], true),
              result,
            ),
        }),
        paceMs: pace === undefined ? 0 : 1000 / pace,
        now: clock.now(),
        models: { chat, realtime, call },
        report: (error) => void events.emit('error', error),
      });
      // A failure in a handler is reported and answered by the session, never thrown out of the socket's event.
      socket.on(
        'message',
        guarded(report, (data: Buffer) => session.receive(data.toString('utf8'))),
      );
      socket.on(
        'close',
        guarded(report, () => session.close()),
      );
    },
  );
}

/** Accepts, then says why the caller is refused in an `error` event and closes (a browser cannot read a refused upgrade's status). */
function refuse(socket: WebSocket, error: unknown): void {
  const { text, reason } = renderedError(error, null);
  socket.send(text);
  socket.close(REFUSED_CLOSE_CODE, reason);
}

/** The `error` event telling `error` (a GatewayError's message, else a generic one), answering the client event `eventId`. */
function errorEvent(error: unknown, eventId: string | null): string {
  return renderedError(error, eventId).text;
}

function renderedError(error: unknown, eventId: string | null): { text: string; reason: string } {
  const gatewayError = error instanceof GatewayError ? error : new GatewayError('internal', 'Internal error in the gateway; see its log');
  const { body } = renderError('openai', gatewayError) as { body: { error: { type: string; code: string | null } } };
  const text = JSON.stringify({ event_id: publicId('event'), type: 'error', error: { ...body.error, event_id: eventId } });
  return { text, reason: `${body.error.type}.${body.error.code ?? 'refused'}` };
}

/**
 * The output tokens a relayed `response.create` may produce: its `max_output_tokens` (beta: `max_response_output_tokens`)
 * when a number, else DEFAULT_OUTPUT_BOUND (`inf`, or a limit the session set upstream, which the gateway does not track).
 */
function relayedOutputLimit(response: Record<string, unknown> | undefined): number {
  const limit = response?.['max_output_tokens'] ?? response?.['max_response_output_tokens'];
  return typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0 ? limit : DEFAULT_OUTPUT_BOUND;
}

/** The WebSocket subprotocols the client offered, in order. */
function offeredProtocols(headers: FastifyRequest['headers']): string[] {
  const value = headers['sec-websocket-protocol'];
  return typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : [];
}

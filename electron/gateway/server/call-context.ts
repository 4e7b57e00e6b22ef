// Builds the provider call context of a request (its caller, protocol, raw body, headers) and watches its client from the request's arrival: a signal that aborts when the client goes away.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CassetteReplayNote } from '../../../shared/cassette.ts';
import type { Principal } from '../principal.ts';
import type { CallContext, InboundProtocol } from '../providers/types.ts';
import { pathOf, searchOf } from './protocol.ts';
import type { SyncStep } from './sync-hook.ts';
import { isUpgrade } from './socket-scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborts when the client goes away before its answer is finished; watched from the request's arrival (`watchClients`). */
    clientSignal?: AbortSignal;
    /** Set when the client went away before any of its answer was sent (the journal records such a call as 499). */
    clientLeftEarly?: boolean;
    /** Set when the gateway itself closed the connection (a simulated fault), so the close is not the client's. */
    closedByGateway?: boolean;
    /** The protocol and endpoint of the call a route made of this request (`callOf`), for its cassette. */
    callKind?: { protocol: InboundProtocol; endpoint: string };
    /** The cassette that answered a replayed call (`noteReplay`), for its journal entry. */
    journalReplay?: CassetteReplayNote;
  }
}

/** The status a call is journaled with when its client went away before any of the answer was sent (nginx's "client closed request"). */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * The `onRequest` step that watches every HTTP request's client from the moment the request arrives:
 * `request.clientSignal` aborts when the connection closes before the answer is finished (during the latency wait, the
 * body read, authentication or the handler alike). Run it before any hook that waits; with `dropAbandonedStep` as a
 * `preHandler` step, a request whose client is gone by the time its handler would run is dropped there: no provider
 * or upstream is called and nothing is charged.
 */
export const watchClientStep: SyncStep = (request, reply) => {
  if (!isUpgrade(request)) watchClient(request, reply);
};

/** The `preHandler` step that drops a request whose client went away (see `watchClientStep`). */
export const dropAbandonedStep: SyncStep = (request, reply) => (request.clientSignal?.aborted ? dropAbandoned(reply) : undefined);

/** Sets `request.clientSignal` (and `clientLeftEarly`) from now on; returns the signal. */
function watchClient(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  request.clientSignal = controller.signal;
  const response = reply.raw;
  const gone = () => {
    if (response.writableFinished) return;
    if (!response.headersSent && !request.closedByGateway) request.clientLeftEarly = true;
    controller.abort(new Error('the client went away'));
  };
  if (response.destroyed) gone();
  // `on`, not `once`: a response closes once, and `once` costs a wrapper per call.
  else response.on('close', gone);
  return controller.signal;
}

/** Closes the connection of `request` from the gateway's side (a simulated fault): the client did not leave, so it is not journaled as 499. */
export function closeConnection(request: FastifyRequest): void {
  request.closedByGateway = true;
  request.raw.socket.destroy();
}

/** Ends the handling of a request whose client is gone: its handler is not run and nothing is written (the connection is closed already). */
export function dropAbandoned(reply: FastifyReply): FastifyReply {
  return reply.hijack();
}

/**
 * The call context of `request` for a provider. The signal is the request's client watch (`watchClients`): it aborts
 * when the client went away, before the handler or mid-answer, so a provider stops generating and a relay stops its
 * upstream call (or never starts it).
 */
export function callOf(request: FastifyRequest, reply: FastifyReply, protocol: InboundProtocol, endpoint: string): CallContext {
  request.callKind = { protocol, endpoint };
  return {
    principal: request.principal,
    protocol,
    method: request.method,
    path: calledPath(request),
    endpoint,
    // Set (undefined when absent) rather than spread in: a call context is made for every call.
    rawBody: request.rawBody,
    body: request.receivedBody?.json ? request.body : undefined,
    headers: request.headers,
    signal: request.clientSignal ?? watchClient(request, reply),
    noteRelay: (relay) => {
      request.journalRelay = relay;
    },
    noteReplay: (replay) => {
      request.journalReplay = replay;
    },
    decided: undefined,
  };
}

/**
 * The path of a call as cassettes match it: without the query (a Gemini `?key=` never reaches a cassette), but for Gemini's
 * `alt=sse`, which turns a JSON-array stream into server-sent events (`?alt=sse` is kept).
 */
export function calledPath(request: FastifyRequest): string {
  const path = pathOf(request);
  // Most calls have no query, or none that could name `alt` (even percent-encoded): no parse for them.
  if (path.length === request.url.length) return path;
  const query = searchOf(request);
  if (!query.includes('alt') && !query.includes('%')) return path;
  return new URLSearchParams(query).get('alt') === 'sse' ? `${path}?alt=sse` : path;
}

/** The call context of a WebSocket session (realtime) for `principal`: no raw body; the signal aborts when the socket closes; a relayed session is told to its journal entry. */
export function callOfSocket(
  request: FastifyRequest,
  socket: { once(event: 'close', listener: () => void): unknown },
  principal: Principal,
  protocol: InboundProtocol,
  endpoint: string,
): CallContext {
  const controller = new AbortController();
  socket.once('close', () => controller.abort(new Error('the client went away')));
  return {
    principal,
    protocol,
    endpoint,
    headers: request.headers,
    signal: controller.signal,
    noteRelay: (relay) => {
      request.journalRelay = relay;
    },
    noteReplay: (replay) => {
      request.journalReplay = replay;
    },
  };
}

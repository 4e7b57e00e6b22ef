// Builds the provider call context of a request: its caller, protocol, raw body, headers, and a signal that aborts when the client goes away.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../principal.ts';
import type { CallContext, InboundProtocol } from '../providers/types.ts';

/**
 * The call context of `request` for a provider. The signal aborts when the response is closed before it
 * finished (the client hung up mid-answer), so a provider stops generating and a relay stops its upstream call.
 */
export function callOf(request: FastifyRequest, reply: FastifyReply, protocol: InboundProtocol, endpoint: string): CallContext {
  const controller = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new Error('the client went away'));
  });
  return {
    principal: request.principal,
    protocol,
    endpoint,
    ...(request.rawBody && { rawBody: request.rawBody }),
    ...(request.receivedBody?.json && { body: request.body }),
    headers: request.headers,
    signal: controller.signal,
    noteRelay: (relay) => {
      request.journalRelay = relay;
    },
  };
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
  };
}

// Every answer carries `x-request-id`: the caller's when it is a plain one (see shared/test-ids.ts), else a new `req_…`; the journal keeps it.
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { CALLER_REQUEST_ID, REQUEST_ID_HEADER } from '../../../shared/test-ids.ts';
import { publicId } from '../ids.ts';
import type { SyncStep } from './sync-hook.ts';

/** Fastify's `genReqId`: the request id of a request, as `request.id`. */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && CALLER_REQUEST_ID.test(given) ? given : publicId('req');
}

/**
 * The `onRequest` step that puts the id on the answer before anything else runs (the app runs it first), so it is the
 * head's first header: set among the reply's headers, it is kept by every way an answer is written (Fastify's send, an
 * error, a stream Fastify sends, and the gateway's own writers of a hijacked reply, which each write the reply's headers
 * with theirs); a WebSocket upgrade's 101 gets it too. Not set on the raw response: one header set there sends every
 * header of the head through Node's setHeader again as it is written (its slower path).
 */
export function requestIdStep(app: FastifyInstance): SyncStep {
  const ofUpgrade = new WeakMap<IncomingMessage, string>();
  // A WebSocket upgrade is answered by the socket server itself: its 101 gets the header there.
  app.websocketServer.on('headers', (headers: string[], raw: IncomingMessage) => {
    const id = ofUpgrade.get(raw);
    if (id !== undefined) headers.push(`${REQUEST_ID_HEADER}: ${id}`);
  });
  return (request, reply) => {
    if (request.ws) ofUpgrade.set(request.raw, request.id);
    else if (!reply.raw.headersSent) reply.header(REQUEST_ID_HEADER, request.id);
  };
}

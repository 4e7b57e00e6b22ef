// Every answer carries `x-request-id`: the caller's when it is a plain one (see shared/test-ids.ts), else a new `req_…`; the journal keeps it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { CALLER_REQUEST_ID, REQUEST_ID_HEADER } from '../../../shared/test-ids.ts';
import { publicId } from '../ids.ts';
import { isUpgrade } from './socket-scope.ts';
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
 * with theirs). Not set on the raw response: one header set there sends every header of the head through Node's
 * setHeader again as it is written (its slower path). An upgrade goes to `upgrade` instead (its 101 gets the id there).
 */
export function requestIdStep(upgrade: (request: FastifyRequest, reply: FastifyReply) => void): SyncStep {
  return (request, reply) => {
    if (isUpgrade(request)) upgrade(request, reply);
    else if (!reply.raw.headersSent) reply.header(REQUEST_ID_HEADER, request.id);
  };
}

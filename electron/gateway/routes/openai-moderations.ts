// POST /v1/moderations: classified by the call's provider (the simulator's trigger words), or relayed as it is to the channel serving its model; never billed.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { parseModerationRequest } from '../protocols/openai/inbound/moderations.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { streamFailure } from '../server/stream-failure.ts';

const ENDPOINT = '/v1/moderations';

export async function moderationsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { events, moderations, providers } = options.context;
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  app.post(ENDPOINT, async (request, reply) => {
    const call = callOf(request, reply, 'openai', ENDPOINT);
    const { model } = parseModerationRequest(request.body);
    const { passthrough } = providers.for(call, model);
    if (passthrough) return relayReply(request, reply, passthrough, { operation: 'moderations', model, stream: false }, call, failure);
    return moderations.moderate(request.body, call);
  });
}

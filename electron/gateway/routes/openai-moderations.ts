// POST /v1/moderations: classified by the call's provider (the simulator's trigger words), never billed.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { callOf } from '../server/call-context.ts';

export async function moderationsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { moderations } = options.context;
  app.post('/v1/moderations', async (request, reply) =>
    moderations.moderate(request.body, callOf(request, reply, 'openai', '/v1/moderations')),
  );
}

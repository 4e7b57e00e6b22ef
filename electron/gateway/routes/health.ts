// Public liveness route: lets hosts, scripts and the benchmark check that the gateway answers.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';

export async function healthRoutes(app: FastifyInstance, _options: { context: GatewayContext }) {
  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok' }));
}

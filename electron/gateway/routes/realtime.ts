// GET /v1/realtime: upgrades to a WebSocket running a simulated realtime session (on the HTTP and the TLS listener).
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { wantsBeta } from '../realtime/event-names.ts';
import { RealtimeSession } from '../realtime/session.ts';

export async function realtimeRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing } = options.context;
  app.get<{ Querystring: { model?: string } }>('/v1/realtime', { websocket: true }, (socket, request) => {
    const model = typeof request.query.model === 'string' && request.query.model !== '' ? request.query.model : 'sim-realtime';
    const principal = request.principal;
    let queue = Promise.resolve();
    const session = new RealtimeSession({
      model,
      beta: wantsBeta(request.headers),
      send: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
      charge: (usage) => billing.charge(principal, { endpoint: '/v1/realtime', model, ...usage }),
    });
    socket.on('message', (data: Buffer) => {
      // Client events are handled one after another, in the order they arrived (cancel is handled at once).
      const text = data.toString('utf8');
      if (text.includes('"response.cancel"')) void session.receive(text);
      else queue = queue.then(() => session.receive(text));
    });
  });
}

// Admin API of the console (/admin/api/…) and its event socket (/admin/ws), guarded by the admin token (the kept console secret, or a per-run token).
import type { FastifyInstance } from 'fastify';
import { ADMIN_ROUTES, type AdminRouteName } from '../../../shared/admin-api.ts';
import { type ScanSummary } from '../../../shared/server-status.ts';
import type { GatewayContext } from '../context.ts';
import { requireAdminToken } from '../server/admin-auth.ts';
import { markAuthenticated } from '../server/connection-guard.ts';
import { requireSameOrigin } from '../server/same-origin.ts';
import { createAdminHandlers, type AdminHandler, type AdminInput } from '../services/admin-handlers.ts';

export async function adminRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { context } = options;
  let lastScan: ScanSummary | null = null;
  const onScan = (report: ScanSummary) => (lastScan = report);
  context.events.on('scan.finished', onScan);
  app.addHook('onClose', async () => void context.events.off('scan.finished', onScan));

  guardAdmin(app, context);

  const handlers = createAdminHandlers(context, { lastScan: () => lastScan });
  for (const name of Object.keys(ADMIN_ROUTES) as AdminRouteName[]) {
    const { method, path } = ADMIN_ROUTES[name];
    const handler = handlers[name] as AdminHandler<AdminRouteName>;
    app.route({
      method,
      url: path,
      config: { public: true },
      handler: async (request) => {
        // What the admin API reads includes every call answered before: bookkeeping no call waited for is committed first.
        context.writes.flush();
        return handler({
          params: request.params,
          query: (request.query ?? {}) as Record<string, unknown>,
          body: request.body,
        } as AdminInput<AdminRouteName>);
      },
    });
  }
}

/**
 * The hooks of every admin route, the event socket's included (its own plugin, in the socket scope): it answers its own
 * origin only and needs the admin token (API tokens are not accepted here), and its answers are never cached.
 */
export function guardAdmin(app: FastifyInstance, context: GatewayContext): void {
  app.addHook('onRequest', async (request) => {
    requireSameOrigin(request);
    requireAdminToken(request.headers, context.runtime.adminToken);
    markAuthenticated(request.raw.socket);
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
}

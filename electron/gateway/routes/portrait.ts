// Routes of the portrait library: the seven group and asset endpoints in the `{success,message,data}` envelope.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { callOf } from '../server/call-context.ts';
import { normalizePaging } from '../services/paging.ts';
import {
  parseAssetCreate,
  parseAssetListFilter,
  parseAssetUpdate,
  parseGroupCreate,
  parseGroupUpdate,
} from '../services/portrait-input.ts';

type Query = Record<string, unknown>;
type IdParams = { id: string };

/** The success envelope. */
const ok = <T>(data: T) => ({ success: true as const, message: '' as const, data });

export async function portraitRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { groups, assets } = options.context;

  app.post('/v1/portrait/groups', async (request) => ok(groups.create(request.principal.accountId, parseGroupCreate(request.body))));

  app.get<{ Querystring: Query }>('/v1/portrait/groups', async (request) => {
    const paging = normalizePaging(request.query['p'], request.query['page_size']);
    return ok(groups.list(request.principal.accountId, paging));
  });

  app.put<{ Params: IdParams }>('/v1/portrait/groups/:id', async (request) =>
    ok(groups.update(request.principal.accountId, request.params.id, parseGroupUpdate(request.body))),
  );

  app.post('/v1/portrait/assets', async (request, reply) =>
    ok(
      await assets.create(
        request.principal.accountId,
        parseAssetCreate(request.body),
        callOf(request, reply, 'portrait', '/v1/portrait/assets'),
      ),
    ),
  );

  app.get<{ Querystring: Query }>('/v1/portrait/assets', async (request) => {
    const filter = parseAssetListFilter(request.query);
    const paging = normalizePaging(request.query['p'], request.query['page_size']);
    return ok(assets.list(request.principal.accountId, filter, paging));
  });

  app.get<{ Params: IdParams }>('/v1/portrait/assets/:id', async (request, reply) =>
    ok(await assets.get(request.principal.accountId, request.params.id, callOf(request, reply, 'portrait', '/v1/portrait/assets/:id'))),
  );

  app.put<{ Params: IdParams }>('/v1/portrait/assets/:id', async (request) =>
    ok(assets.rename(request.principal.accountId, request.params.id, parseAssetUpdate(request.body).name)),
  );
}

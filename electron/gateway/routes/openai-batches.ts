// The Batch API: create from an uploaded file, retrieve, list and cancel, per account (the lines run in the background, see services/batches.ts).
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { parseBatchCreate } from '../protocols/openai/inbound/batches.ts';
import { parseListQuery, renderList } from '../protocols/openai/cursor-list.ts';

type IdParams = { Params: { id: string } };

/** As on the real API: 20 by default, at most 100, newest first. */
const BATCHES_LIST = { defaultLimit: 20, maxLimit: 100, defaultOrder: 'desc' } as const;

export async function batchesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { batches } = options.context;

  app.post('/v1/batches', async (request) => batches.create(request.principal, parseBatchCreate(request.body)));

  app.get('/v1/batches', async (request) => {
    const { after, limit } = parseListQuery(request.query, BATCHES_LIST);
    const { data, hasMore } = batches.list(request.principal.accountId, { ...(after !== undefined && { after }), limit, order: 'desc' });
    return renderList(data as { id: string }[], hasMore);
  });

  app.get<IdParams>('/v1/batches/:id', async (request) => batches.get(request.principal.accountId, request.params.id));

  app.post<IdParams>('/v1/batches/:id/cancel', async (request) => batches.cancel(request.principal.accountId, request.params.id));
}

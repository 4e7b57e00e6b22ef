// Routes of the OpenAI Conversations API: conversations and their items, kept by the gateway per account (another account's id answers as unknown).
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { objectBody } from '../protocols/fields.ts';
import { metadataOf } from '../protocols/metadata.ts';
import { parseMetadataUpdate } from '../protocols/openai/inbound/chat-store.ts';
import { pageOf, parseListQuery, renderList } from '../protocols/openai/cursor-list.ts';

/** Item lists, as on the real API: 20 by default, at most 100, newest first. */
const ITEMS_LIST = { defaultLimit: 20, maxLimit: 100, defaultOrder: 'desc' } as const;

type IdParams = { Params: { id: string } };
type ItemParams = { Params: { id: string; item: string } };

export async function openaiConversationsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { conversations } = options.context;

  app.post('/v1/conversations', async (request) => {
    const fields = request.body === undefined || request.body === null ? {} : objectBody(request.body);
    const metadata = fields['metadata'] === undefined || fields['metadata'] === null ? {} : metadataOf(fields['metadata']);
    return conversations.create(request.principal.accountId, metadata, fields['items']);
  });

  app.get<IdParams>('/v1/conversations/:id', async (request) => conversations.get(request.principal.accountId, request.params.id));

  app.post<IdParams>('/v1/conversations/:id', async (request) =>
    conversations.update(request.principal.accountId, request.params.id, parseMetadataUpdate(request.body)),
  );

  app.delete<IdParams>('/v1/conversations/:id', async (request) => conversations.delete(request.principal.accountId, request.params.id));

  app.post<IdParams>('/v1/conversations/:id/items', async (request) => {
    const fields = objectBody(request.body);
    const added = conversations.addItems(request.principal.accountId, request.params.id, fields['items'] ?? []);
    return renderList(added as { id: string }[], false);
  });

  app.get<IdParams>('/v1/conversations/:id/items', async (request) => {
    const query = parseListQuery(request.query, ITEMS_LIST);
    const items = conversations.items(request.principal.accountId, request.params.id) as { id: string }[];
    const { data, hasMore } = pageOf(items, query);
    return renderList(data, hasMore);
  });

  app.get<ItemParams>('/v1/conversations/:id/items/:item', async (request) =>
    conversations.item(request.principal.accountId, request.params.id, request.params.item),
  );

  app.delete<ItemParams>('/v1/conversations/:id/items/:item', async (request) =>
    conversations.deleteItem(request.principal.accountId, request.params.id, request.params.item),
  );
}

// The stored chat completions API: list (by model and metadata), retrieve, update metadata, delete, and the messages of a completion, per account.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { listFilters, parseMetadataUpdate, storedMessage } from '../protocols/openai/inbound/chat-store.ts';
import { pageOf, parseListQuery, renderList } from '../protocols/openai/cursor-list.ts';

type IdParams = { Params: { id: string } };

/** As on the real API: 20 by default, at most 100, oldest first. */
const COMPLETIONS_LIST = { defaultLimit: 20, maxLimit: 100, defaultOrder: 'asc' } as const;

export async function openaiChatStoreRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { storedChatCompletions: stored } = options.context;

  app.get('/v1/chat/completions', async (request) => {
    const query = parseListQuery(request.query, COMPLETIONS_LIST);
    const { data, hasMore } = stored.list(request.principal.accountId, listFilters(request.query), query);
    return renderList(data as { id: string }[], hasMore);
  });

  app.get<IdParams>('/v1/chat/completions/:id', async (request) => stored.get(request.principal.accountId, request.params.id));

  app.post<IdParams>('/v1/chat/completions/:id', async (request) =>
    stored.update(request.principal.accountId, request.params.id, parseMetadataUpdate(request.body)),
  );

  app.delete<IdParams>('/v1/chat/completions/:id', async (request) => {
    stored.delete(request.principal.accountId, request.params.id);
    return { id: request.params.id, object: 'chat.completion.deleted', deleted: true };
  });

  app.get<IdParams>('/v1/chat/completions/:id/messages', async (request) => {
    const query = parseListQuery(request.query, COMPLETIONS_LIST);
    const messages = stored
      .messages(request.principal.accountId, request.params.id)
      .map((message, index) => storedMessage(message, `${request.params.id}-${index}`));
    const { data, hasMore } = pageOf(messages, query);
    return renderList(data, hasMore);
  });
}

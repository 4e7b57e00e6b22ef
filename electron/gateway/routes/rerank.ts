// POST /v1/rerank (Jina, Cohere v1) and /v2/rerank (Cohere v2): parse, rank through the call's provider (billed), render the shape their clients read.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { parseRerankRequest, renderRerank, type RerankEndpoint } from '../protocols/rerank.ts';
import { callOf } from '../server/call-context.ts';

export async function rerankRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { retrieval } = options.context;
  const route = (endpoint: RerankEndpoint) =>
    app.post(endpoint, async (request, reply) => {
      const asked = parseRerankRequest(request.body, endpoint);
      const { model, query, documents, topN } = asked;
      const { results, usage } = await retrieval.rerank({ model, query, documents, topN }, callOf(request, reply, 'rerank', endpoint));
      return renderRerank(endpoint, asked, results, usage.inputTokens);
    });
  route('/v1/rerank');
  route('/v2/rerank');
}

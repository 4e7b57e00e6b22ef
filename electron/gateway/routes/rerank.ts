// POST /v1/rerank (Jina, Cohere v1) and /v2/rerank (Cohere v2): parse, rank through the call's provider (billed), render the shape their clients read.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { parseRerankRequest, renderRerank, type RerankEndpoint } from '../protocols/rerank.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering } from '../services/chat-metering.ts';

export async function rerankRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, events, providers, retrieval } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  const route = (endpoint: RerankEndpoint) =>
    app.post(endpoint, async (request, reply) => {
      const asked = parseRerankRequest(request.body, endpoint);
      const { model, query, documents, topN } = asked;
      const call = callOf(request, reply, 'rerank', endpoint);
      const estimate = () => [query, ...documents].reduce((sum, text) => sum + countTokens(text), 0);
      // Held against the token's quota until the call was charged.
      const held = billing.reserve(request.principal, () => ({ model, inputTokens: estimate(), outputTokens: 0 }));
      return held.during(async () => {
        const { passthrough } = providers.for(call, model);
        // Relayed as it is to an OpenAI-kind channel: the Jina / Cohere v1 shape to its /rerank, Cohere's v2 shape to the /v2/rerank beside its /v1.
        if (passthrough) {
          const bill = { principal: request.principal, endpoint, model };
          const forward = { operation: endpoint === '/v1/rerank' ? 'rerank' : 'rerank_v2', model, stream: false } as const;
          return relayReply(request, reply, passthrough, forward, call, failure, (usage) =>
            metering.chargeRelayed(bill, { ...usage, outputTokens: 0 }, estimate),
          );
        }
        const { results, usage } = await retrieval.rerank({ model, query, documents, topN }, call);
        return renderRerank(endpoint, asked, results, usage.inputTokens);
      });
    });
  route('/v1/rerank');
  route('/v2/rerank');
}

// POST /v1/embeddings in the OpenAI shape: parse, embed through the call's provider (billed), render float arrays or base64 float32; or relay as it is.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { embeddingInputTokens, parseEmbeddingsRequest, renderEmbeddings } from '../protocols/openai/inbound/embeddings.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering } from '../services/chat-metering.ts';

const ENDPOINT = '/v1/embeddings';

export async function embeddingsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, events, providers, retrieval } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  app.post(ENDPOINT, async (request, reply) => {
    const { encoding, ...asked } = parseEmbeddingsRequest(request.body);
    const call = callOf(request, reply, 'openai', ENDPOINT);
    const estimate = () => embeddingInputTokens(asked.inputs);
    // Held against the token's quota until the call was charged.
    const held = billing.reserve(request.principal, () => ({ model: asked.model, inputTokens: estimate(), outputTokens: 0 }));
    return held.during(async () => {
      const { passthrough } = providers.for(call, asked.model);
      if (passthrough) {
        const bill = { principal: request.principal, endpoint: ENDPOINT, model: asked.model };
        const forward = { operation: 'embeddings', model: asked.model, stream: false } as const;
        return relayReply(request, reply, passthrough, forward, call, failure, (usage) =>
          metering.chargeRelayed(bill, { ...usage, outputTokens: 0 }, estimate),
        );
      }
      const { vectors, usage } = await retrieval.embed(asked, call);
      return renderEmbeddings(asked.model, vectors, usage.inputTokens, encoding);
    });
  });
}

// POST /v1/embeddings in the OpenAI shape: parse, embed through the call's provider (billed), render float arrays or base64 float32.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { parseEmbeddingsRequest, renderEmbeddings } from '../protocols/openai/inbound/embeddings.ts';
import { callOf } from '../server/call-context.ts';

const ENDPOINT = '/v1/embeddings';

export async function embeddingsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { retrieval } = options.context;
  app.post(ENDPOINT, async (request, reply) => {
    const { encoding, ...asked } = parseEmbeddingsRequest(request.body);
    const { vectors, usage } = await retrieval.embed(asked, callOf(request, reply, 'openai', ENDPOINT));
    return renderEmbeddings(asked.model, vectors, usage.inputTokens, encoding);
  });
}

// Gemini's models/{model}:embedContent and :batchEmbedContents: parse, embed through the call's provider (billed by input tokens like OpenAI embeddings), render; or relay as it is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { parseBatchEmbedContents, parseEmbedContent, renderEmbedding, renderEmbeddings } from '../protocols/gemini/inbound/embeddings.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import type { StreamFailure } from '../server/sse.ts';
import { ChatMetering } from '../services/chat-metering.ts';

/** The handler of both methods, for a gateway's context; `failure` is the Gemini routes' stream failure handling. */
export function geminiEmbeddings(context: GatewayContext, failure: StreamFailure) {
  const { billing, providers, retrieval } = context;
  const metering = new ChatMetering(billing);
  return async (request: FastifyRequest, reply: FastifyReply, model: string, apiVersion: string, batch: boolean) => {
    const operation = batch ? 'batchEmbedContents' : 'embedContent';
    const asked = batch ? parseBatchEmbedContents(request.body, model) : parseEmbedContent(request.body, model);
    const endpoint = `/${apiVersion}/models:${operation}`;
    const call = callOf(request, reply, 'gemini', endpoint);
    const estimate = () => asked.inputs.reduce((sum, input) => sum + countTokens(input), 0);
    // Held against the token's quota until the call was charged.
    const held = billing.reserve(request.principal, () => ({ model, inputTokens: estimate(), outputTokens: 0 }));
    return held.during(async () => {
      const { passthrough } = providers.for(call, model);
      if (passthrough) {
        const bill = { principal: request.principal, endpoint, model };
        const forward = { operation, model, stream: false, apiVersion } as const;
        // Gemini's embeddings answers carry no usage: billed by the estimate of the texts.
        return relayReply(request, reply, passthrough, forward, call, failure, (usage) =>
          metering.chargeRelayed(bill, { ...usage, outputTokens: 0 }, estimate),
        );
      }
      const { vectors } = await retrieval.embed(asked, call);
      return batch ? renderEmbeddings(vectors) : renderEmbedding(vectors[0]!);
    });
  };
}

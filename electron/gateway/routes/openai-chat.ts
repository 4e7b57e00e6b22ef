// POST /v1/chat/completions in simulate mode: JSON or SSE chunks, billed per call.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { parseChatBody } from '../protocols/openai/inbound/chat-request.ts';
import { chatCompletionChunks, toChatCompletion } from '../protocols/openai/inbound/chat-response.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { DONE, writeSse } from '../server/sse.ts';

export async function openaiChatRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock } = options.context;
  app.post('/v1/chat/completions', async (request, reply) => {
    const { chat, stream, includeUsage, legacyFunctions } = parseChatBody(request.body);
    const result = simulateChat(chat);
    billing.charge(request.principal, {
      endpoint: '/v1/chat/completions',
      model: chat.model,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    });
    const meta = { id: publicId('chatcmpl'), created: Math.floor(clock.now() / 1000), model: chat.model };
    if (!stream) return toChatCompletion(result, meta, { legacyFunctions });
    return writeSse(request, reply, [...chatCompletionChunks(result, meta, includeUsage, streamPieces, { legacyFunctions }), DONE]);
  });
}

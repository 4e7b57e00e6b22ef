// Routes of the Anthropic Messages API in simulate mode: POST /v1/messages (JSON or SSE) and /v1/messages/count_tokens.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { toAnthropicMessage } from '../protocols/anthropic/inbound/message.ts';
import { parseMessagesBody } from '../protocols/anthropic/inbound/request.ts';
import { anthropicStreamEvents } from '../protocols/anthropic/inbound/stream.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { estimateInputTokens } from '../protocols/neutral/tokens.ts';
import { writeSse } from '../server/sse.ts';
import { invalid } from '../errors.ts';

/** Billing endpoint name of this family. */
const ENDPOINT = '/v1/messages';

export async function anthropicMessagesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing } = options.context;

  app.post('/v1/messages', async (request, reply) => {
    requireVersion(request);
    const { chat, stream } = parseMessagesBody(request.body);
    const result = simulateChat(chat);
    const message = toAnthropicMessage(result, chat.model, publicId('msg'));
    billing.charge(request.principal, {
      endpoint: ENDPOINT,
      model: chat.model,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    });
    if (!stream) return message;
    return writeSse(request, reply, anthropicStreamEvents(message, streamPieces));
  });

  // Counting is free on the real API, and so it is here.
  app.post('/v1/messages/count_tokens', async (request) => {
    requireVersion(request);
    const { chat } = parseMessagesBody(request.body, { countOnly: true });
    return { input_tokens: estimateInputTokens(chat) };
  });
}

/** The real API refuses calls without `anthropic-version`; any date is accepted (SDKs send their own). */
function requireVersion(request: FastifyRequest): void {
  const version = request.headers['anthropic-version'];
  if (typeof version !== 'string' || version.trim() === '') {
    throw invalid('anthropic-version: header is required', 'anthropic-version');
  }
}

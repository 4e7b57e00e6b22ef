// Routes of the Anthropic Messages API: POST /v1/messages (JSON, or SSE streamed as the provider answers) and /v1/messages/count_tokens.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { anthropicCodec } from '../protocols/anthropic/inbound/codec.ts';
import { streamEvents } from '../protocols/neutral/codec.ts';
import { parseMessagesBody } from '../protocols/anthropic/inbound/request.ts';
import { estimateInputTokens, relayInputEstimate } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { writeSse, writesWhole } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering, chatBillOf } from '../services/chat-metering.ts';
import { invalid } from '../errors.ts';
import { countedTokens } from './token-count.ts';

/** Billing endpoint name of this family. */
const ENDPOINT = '/v1/messages';

export async function anthropicMessagesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, events, providers } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('anthropic', (error) => void events.emit('error', error));

  app.post(ENDPOINT, async (request, reply) => {
    requireVersion(request);
    const parsed = anthropicCodec.parse(request.body);
    const call = callOf(request, reply, 'anthropic', ENDPOINT);
    const chats = () => [parsed.chat];
    const bill = chatBillOf(call, request.principal, ENDPOINT, parsed.chat.model, chats);
    // The most the call can cost is held against the token's quota until it ended (and was charged).
    return metering.reserve(bill, chats).during(async () => {
      const { chat, passthrough } = providers.for(call, parsed.chat.model);
      if (passthrough) {
        const asked = { operation: 'messages', model: parsed.chat.model, stream: parsed.stream } as const;
        const estimate = relayInputEstimate(parsed.chat);
        return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, estimate));
      }
      const id = publicId('msg');
      if (!parsed.stream) {
        const result = await chat.complete(parsed.chat, call);
        await metering.chargeResult(bill, result);
        return anthropicCodec.render(result, parsed, { id, model: parsed.chat.model, inputTokens: result.usage.inputTokens });
      }
      const stream = await chat.stream(parsed.chat, call);
      const estimate = () => estimateInputTokens(parsed.chat);
      const meta = { id, model: parsed.chat.model, inputTokens: stream.inputTokens ?? estimate() };
      const metered = metering.meter(stream, bill, estimate);
      // An answer at hand is written without an async step per event, a kept answer's as the bytes rendered once (but when a
      // stream fault counts its frames one by one).
      return writeSse(request, reply, streamEvents(anthropicCodec, metered, parsed, meta, writesWhole(request)), failure);
    });
  });

  // Counting is free on the real API, and so it is here.
  app.post('/v1/messages/count_tokens', async (request, reply) => {
    requireVersion(request);
    const { chat } = parseMessagesBody(request.body, { countOnly: true });
    const call = callOf(request, reply, 'anthropic', '/v1/messages/count_tokens');
    const provider = providers.for(call, chat.model);
    if (provider.passthrough) {
      return relayReply(
        request,
        reply,
        provider.passthrough,
        { operation: 'count_tokens', model: chat.model, stream: false },
        call,
        failure,
      );
    }
    return { input_tokens: countedTokens(await provider.chat.countTokens(chat, call), reply) };
  });
}

/** The real API refuses calls without `anthropic-version`; any date is accepted (SDKs send their own). */
function requireVersion(request: FastifyRequest): void {
  const version = request.headers['anthropic-version'];
  if (typeof version !== 'string' || version.trim() === '') {
    throw invalid('anthropic-version: header is required', 'anthropic-version');
  }
}

// POST /v1/completions (the legacy OpenAI completions API): JSON or SSE chunks streamed as the provider answers each prompt (or relayed), billed per call.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { openaiCompletionsCodec } from '../protocols/openai/inbound/completions-codec.ts';
import { choicesPerPrompt } from '../protocols/openai/inbound/completions.ts';
import { joinChatResults, joinChatStreams } from '../protocols/neutral/join.ts';
import { streamEvents } from '../protocols/neutral/codec.ts';
import { estimateInputTokens, relayInputEstimate } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { writeSse, writesWhole } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering, chatBillOf } from '../services/chat-metering.ts';

const ENDPOINT = '/v1/completions';

export async function openaiCompletionsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock, events, providers } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  app.post(ENDPOINT, async (request, reply) => {
    const parsed = openaiCompletionsCodec.parse(request.body);
    const call = callOf(request, reply, 'openai', ENDPOINT);
    const chats = () => parsed.requests;
    const bill = chatBillOf(call, request.principal, ENDPOINT, parsed.model, chats);
    const estimate = () => parsed.requests.reduce((sum, chatRequest) => sum + estimateInputTokens(chatRequest), 0);
    // The most the call can cost is held against the token's quota until it ended (and was charged).
    return metering.reserve(bill, chats).during(async () => {
      const { chat, passthrough } = providers.for(call, parsed.model);
      if (passthrough) {
        const asked = { operation: 'completions', model: parsed.model, stream: parsed.stream } as const;
        // Made before forwarding: it refuses schema documents past the limits, as a simulated call does.
        const estimates = parsed.requests.map(relayInputEstimate);
        const relayEstimate = () => estimates.reduce((sum, counted) => sum + counted(), 0);
        return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, relayEstimate));
      }
      const meta = { id: publicId('cmpl'), created: Math.floor(clock.now() / 1000), model: parsed.model };
      if (!parsed.stream) {
        const result = joinChatResults(await Promise.all(parsed.requests.map((chatRequest) => chat.complete(chatRequest, call))));
        await metering.chargeResult(bill, result);
        return openaiCompletionsCodec.render(result, parsed, meta);
      }
      // Every prompt's answer is started (and so may be refused) before the first byte goes out.
      const streams = await Promise.all(parsed.requests.map((chatRequest) => chat.stream(chatRequest, call)));
      const joined = joinChatStreams(
        streams,
        streams.map(() => choicesPerPrompt(parsed)),
      );
      // Answers at hand are written without an async step per event, a kept one's as the bytes rendered once (see writesWhole).
      const metered = metering.meter(joined, bill, estimate);
      return writeSse(request, reply, streamEvents(openaiCompletionsCodec, metered, parsed, meta, writesWhole(request)), failure);
    });
  });
}

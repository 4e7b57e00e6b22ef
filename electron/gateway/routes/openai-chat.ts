// POST /v1/chat/completions: JSON or SSE chunks streamed as the provider answers (or relayed as the upstream sends them), billed per call, stored when asked.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { openaiChatCodec } from '../protocols/openai/inbound/chat-codec.ts';
import { streamEvents } from '../protocols/neutral/codec.ts';
import { estimateInputTokens, relayInputEstimate } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { JSON_TYPE, writeSse } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering, chatBillOf } from '../services/chat-metering.ts';

const ENDPOINT = '/v1/chat/completions';

export async function openaiChatRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, chatCompletions, events, providers } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  app.post(ENDPOINT, async (request, reply) => {
    const parsed = openaiChatCodec.parse(request.body);
    const call = callOf(request, reply, 'openai', ENDPOINT);
    const { chat, passthrough } = providers.for(call, parsed.chat.model);
    const chats = () => [parsed.chat];
    const bill = chatBillOf(call, request.principal, ENDPOINT, parsed.chat.model, chats);
    // The most the call can cost is held against the token's quota until it ended (and was charged).
    return metering.reserve(bill, chats).during(async () => {
      // A relayed `store: true` call is answered through the neutral model, so the gateway keeps what the channel answered.
      if (passthrough && !parsed.store) {
        const asked = { operation: 'chat', model: parsed.chat.model, stream: parsed.stream } as const;
        const estimate = relayInputEstimate(parsed.chat);
        return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, estimate));
      }
      if (!parsed.stream) {
        const answer = await chatCompletions.answer(parsed, call, chat, bill);
        // The completion's own JSON text, with the header Fastify gives the JSON it serializes.
        if (typeof answer === 'string') reply.type(JSON_TYPE);
        return answer;
      }
      const meta = chatCompletions.meta(parsed.chat.model);
      const metered = metering.meter(await chat.stream(parsed.chat, call), bill, () => estimateInputTokens(parsed.chat));
      // A stored completion is recorded as it streams (event by event); otherwise an answer at hand is written without an async step per event.
      const deltas = parsed.store ? chatCompletions.keepWhenStored(parsed, call, metered, meta) : metered;
      return writeSse(request, reply, streamEvents(openaiChatCodec, deltas, parsed, meta), failure);
    });
  });
}

// POST /v1/chat/completions: JSON or SSE chunks streamed as the provider answers (or relayed as the upstream sends them), billed per call, stored when asked.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { openaiChatCodec } from '../protocols/openai/inbound/chat-codec.ts';
import { streamEvents } from '../protocols/neutral/codec.ts';
import { estimateInputTokens, relayInputEstimate } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { JSON_TYPE, writeSse, writesWhole } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering, chatBillOf, type ChatBill } from '../services/chat-metering.ts';
import type { ChatCall } from '../protocols/openai/inbound/chat-request.ts';
import type { CallContext, ChatProvider } from '../providers/types.ts';

const ENDPOINT = '/v1/chat/completions';

export async function openaiChatRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, chatCompletions, events, providers } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  // Not async, nor is the work its reservation runs: a whole answer is the call's own promise, not one more that adopts
  // it (a throw before the call starts is answered by the error handler, as a rejection would be).
  app.post(ENDPOINT, (request, reply) => {
    const parsed = openaiChatCodec.parse(request.body);
    const call = callOf(request, reply, 'openai', ENDPOINT);
    const chats = () => [parsed.chat];
    const bill = chatBillOf(call, request.principal, ENDPOINT, parsed.chat.model, chats);
    // The most the call can cost is held against the token's quota until it ended (and was charged).
    return metering.reserve(bill, chats).during(() => {
      const { chat, passthrough } = providers.for(call, parsed.chat.model);
      // A relayed `store: true` call is answered through the neutral model, so the gateway keeps what the channel answered.
      if (passthrough && !parsed.store) {
        const asked = { operation: 'chat', model: parsed.chat.model, stream: parsed.stream } as const;
        const estimate = relayInputEstimate(parsed.chat);
        return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, estimate));
      }
      if (!parsed.stream) {
        // Not stored, the answer is the completion's own JSON text: it gets the header Fastify gives the JSON it serializes
        // (an error answered instead is JSON as well, with the same header).
        if (!parsed.store) reply.type(JSON_TYPE);
        return chatCompletions.answer(parsed, call, chat, bill);
      }
      return streamed(request, reply, parsed, call, chat, bill);
    });
  });

  /** A streamed answer: SSE chunks as the provider's deltas come, metered, recorded as they pass when stored. */
  async function streamed(
    request: FastifyRequest,
    reply: FastifyReply,
    parsed: ChatCall,
    call: CallContext,
    chat: ChatProvider,
    bill: ChatBill,
  ): Promise<unknown> {
    const meta = chatCompletions.meta(parsed.chat.model);
    const metered = metering.meter(await chat.stream(parsed.chat, call), bill, () => estimateInputTokens(parsed.chat));
    // A stored completion is recorded as it streams (event by event); otherwise an answer at hand is written without an async
    // step per event, a kept answer's as the bytes rendered once (but when a stream fault counts its frames one by one).
    const deltas = parsed.store ? chatCompletions.keepWhenStored(parsed, call, metered, meta) : metered;
    return writeSse(request, reply, streamEvents(openaiChatCodec, deltas, parsed, meta, writesWhole(request)), failure);
  }
}

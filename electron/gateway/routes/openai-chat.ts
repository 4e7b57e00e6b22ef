// POST /v1/chat/completions: JSON or SSE chunks streamed as the provider answers (or relayed as the upstream sends them), billed per call.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { openaiChatCodec } from '../protocols/openai/inbound/chat-codec.ts';
import { estimateInputTokens } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { writeSse } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering } from '../services/chat-metering.ts';

const ENDPOINT = '/v1/chat/completions';

export async function openaiChatRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock, events, providers } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  app.post(ENDPOINT, async (request, reply) => {
    const parsed = openaiChatCodec.parse(request.body);
    const call = callOf(request, reply, 'openai', ENDPOINT);
    const { chat, passthrough } = providers.for(call, parsed.chat.model);
    const bill = { principal: request.principal, endpoint: ENDPOINT, model: parsed.chat.model };
    if (passthrough) {
      const asked = { operation: 'chat', model: parsed.chat.model, stream: parsed.stream } as const;
      const estimate = estimateInputTokens(parsed.chat);
      return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, estimate));
    }
    const meta = { id: publicId('chatcmpl'), created: Math.floor(clock.now() / 1000), model: parsed.chat.model };
    if (!parsed.stream) {
      const result = await chat.complete(parsed.chat, call);
      await metering.chargeResult(bill, result);
      return openaiChatCodec.render(result, parsed, meta);
    }
    const deltas = metering.meter(await chat.stream(parsed.chat, call), bill, () => estimateInputTokens(parsed.chat));
    return writeSse(request, reply, openaiChatCodec.stream(deltas, parsed, meta), failure);
  });
}

// Routes of the OpenAI Responses API: create (JSON, or SSE streamed as the provider answers), retrieve and delete stored responses per account.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { responsesCodec } from '../protocols/responses/inbound/codec.ts';
import { chatRequestOf } from '../protocols/responses/inbound/request.ts';
import { responseObject } from '../protocols/responses/inbound/response.ts';
import { estimateInputTokens } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { writeSse } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering } from '../services/chat-metering.ts';

type IdParams = { Params: { id: string } };

const ENDPOINT = '/v1/responses';

export async function openaiResponsesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock, events, providers, storedResponses: stored } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('responses', (error) => void events.emit('error', error));

  app.post(ENDPOINT, async (request, reply) => {
    const parsed = responsesCodec.parse(request.body);
    const { accountId } = request.principal;
    const earlier = parsed.previousResponseId === null ? [] : stored.conversationAfter(accountId, parsed.previousResponseId);
    const conversation = [...earlier, ...parsed.input];
    const chatRequest = chatRequestOf(parsed, conversation);
    const call = callOf(request, reply, 'responses', ENDPOINT);
    const { chat } = providers.for(call, parsed.model);
    const bill = { principal: request.principal, endpoint: ENDPOINT, model: parsed.model };
    const meta = { id: publicId('resp'), createdAt: Math.floor(clock.now() / 1000), newId: publicId };
    if (!parsed.stream) {
      const result = await chat.complete(chatRequest, call);
      const response = responsesCodec.render(result, parsed, meta) as Record<string, unknown>;
      // Checked before the charge: a response too large to store is refused whole.
      if (parsed.store) stored.save(accountId, meta.id, stored.prepare(conversation, response));
      metering.chargeResult(bill, result);
      return response;
    }
    // A conversation already too large to store is refused before anything streams; the finished response is stored as streamed.
    if (parsed.store) stored.prepare(conversation, responseObject(parsed, meta));
    const deltas = metering.meter(await chat.stream(chatRequest, call), bill, estimateInputTokens(chatRequest));
    const onComplete = (response: Record<string, unknown>) => {
      if (parsed.store) stored.save(accountId, meta.id, stored.prepare(conversation, response));
    };
    return writeSse(request, reply, responsesCodec.stream(deltas, parsed, { ...meta, onComplete }), failure);
  });

  app.get<IdParams>('/v1/responses/:id', async (request) => stored.get(request.principal.accountId, request.params.id));

  app.delete<IdParams>('/v1/responses/:id', async (request) => {
    stored.delete(request.principal.accountId, request.params.id);
    return { id: request.params.id, object: 'response.deleted', deleted: true };
  });
}

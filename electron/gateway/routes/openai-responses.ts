// Routes of the OpenAI Responses API in simulate mode: create (JSON or SSE), retrieve and delete stored responses per account.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { itemsToTurns } from '../protocols/responses/inbound/items.ts';
import { parseResponsesBody, type ResponsesCall } from '../protocols/responses/inbound/request.ts';
import { responseObject, toOutcome } from '../protocols/responses/inbound/response.ts';
import { responseStreamEvents } from '../protocols/responses/inbound/stream.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import type { ChatRequest } from '../protocols/neutral/chat.ts';
import { writeSse } from '../server/sse.ts';
import { StoredResponses } from '../services/stored-responses.ts';
import { ResponsesRepo } from '../storage/responses-repo.ts';

type IdParams = { Params: { id: string } };

export async function openaiResponsesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock, db, storageLimits } = options.context;
  const stored = new StoredResponses(new ResponsesRepo(db), db, clock, storageLimits);

  app.post('/v1/responses', async (request, reply) => {
    const call = parseResponsesBody(request.body);
    const { accountId } = request.principal;
    const earlier = call.previousResponseId === null ? [] : stored.conversationAfter(accountId, call.previousResponseId);
    const conversation = [...earlier, ...call.input];
    const result = simulateChat(chatRequestOf(call, conversation));
    const meta = { id: publicId('resp'), createdAt: Math.floor(clock.now() / 1000) };
    const outcome = toOutcome(result, publicId);
    const response = responseObject(call, meta, outcome);
    // Checked before the charge: a response too large to store is refused whole.
    if (call.store) stored.save(accountId, meta.id, stored.prepare(conversation, response));
    billing.charge(request.principal, {
      endpoint: '/v1/responses',
      model: call.model,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    });
    if (!call.stream) return response;
    return writeSse(request, reply, responseStreamEvents(call, meta, outcome, streamPieces));
  });

  app.get<IdParams>('/v1/responses/:id', async (request) => stored.get(request.principal.accountId, request.params.id));

  app.delete<IdParams>('/v1/responses/:id', async (request) => {
    stored.delete(request.principal.accountId, request.params.id);
    return { id: request.params.id, object: 'response.deleted', deleted: true };
  });
}

/** The neutral request: instructions as system text (not inherited from earlier responses), the whole conversation as turns. */
function chatRequestOf(call: ResponsesCall, conversation: Record<string, unknown>[]): ChatRequest {
  return {
    model: call.model,
    ...(call.instructions !== null && { system: call.instructions }),
    turns: itemsToTurns(conversation),
    ...(call.allowedTools.length > 0 && { tools: call.allowedTools }),
    toolChoice: call.toolChoice,
    format: call.format,
    ...(call.maxOutputTokens !== null && { maxTokens: call.maxOutputTokens }),
    ...(call.temperature !== null && { temperature: call.temperature }),
  };
}

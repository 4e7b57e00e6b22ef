// Routes of the OpenAI Responses API: create (JSON, or SSE streamed as the provider answers, or relayed), retrieve, delete, list input items of and cancel stored responses per account (relayed ones at the channel that stored them), compact.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queryOf } from '../server/protocol.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../errors.ts';
import { publicId } from '../ids.ts';
import { responsesCodec } from '../protocols/responses/inbound/codec.ts';
import { streamEvents } from '../protocols/neutral/codec.ts';
import { chatRequestOf, type ResponsesCall } from '../protocols/responses/inbound/request.ts';
import type { CallContext } from '../providers/types.ts';
import { asInput, type Conversations } from '../services/conversations.ts';
import { responseObject } from '../protocols/responses/inbound/response.ts';
import type { ChatRequest } from '../protocols/neutral/chat.ts';
import { countTokens, estimateInputTokens, relayInputEstimate } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { writeSse } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering, chatBillOf } from '../services/chat-metering.ts';
import type { RelayedResponse } from '../services/relayed-responses.ts';
import { pageOf, parseListQuery, renderList } from '../protocols/openai/cursor-list.ts';
import { parseCompactBody } from '../protocols/responses/inbound/compaction.ts';
import { compactionAsResponses } from '../services/responses.ts';

/** Input item lists, as on the real API: 20 by default, at most 100, newest first. */
const INPUT_ITEMS_LIST = { defaultLimit: 20, maxLimit: 100, defaultOrder: 'desc' } as const;

type IdParams = { Params: { id: string } };

const ENDPOINT = '/v1/responses';
const COMPACT = '/v1/responses/compact';

export async function openaiResponsesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const {
    billing,
    clock,
    conversations,
    events,
    providers,
    responses,
    storedResponses: stored,
    relayedResponses: relayed,
  } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('responses', (error) => void events.emit('error', error));

  app.post(ENDPOINT, async (request, reply) => {
    const parsed = responsesCodec.parse(request.body);
    const { accountId } = request.principal;
    const call = callOf(request, reply, 'responses', ENDPOINT);
    // The request as a chat, made only when asked (a quota, a bounded charge, a relayed call's estimate).
    let chatAsked: ChatRequest | undefined;
    const asChat = () => [(chatAsked ??= chatRequestOf(parsed, parsed.input))];
    // A follow-up's earlier turns are kept where they were stored (here or upstream): its input may exceed its request.
    const heldContext = parsed.previousResponseId !== null || Boolean(parsed.conversationId);
    const bill = chatBillOf(call, request.principal, ENDPOINT, parsed.model, asChat, heldContext);
    // The most the call can cost is held against the token's quota until it ended (and was charged).
    // A call naming a conversation is its one turn there until it ended (`inTurn`).
    return metering.reserve(bill, asChat).during(() =>
      responses.inTurn(parsed, call, async () => {
        const { chat, passthrough } = providers.for(call, parsed.model);
        if (passthrough) {
          // A conversation stays here: its items go upstream as the call's earlier input, and the turn is added when it completed.
          const relayedCall = parsed.conversationId ? withConversation(conversations, call, parsed, parsed.conversationId) : call;
          // A follow-up goes to the channel that stored the earlier response, and only there: another would not know it.
          // An id this account did not create there is refused as unknown (the channel's key would let anyone continue it).
          const previous = parsed.previousResponseId === null ? undefined : relayed.followUp(accountId, parsed.previousResponseId);
          const asked = {
            operation: 'responses',
            model: parsed.model,
            stream: parsed.stream,
            ...(previous && { channelId: previous.channelId }),
          } as const;
          const estimate = relayInputEstimate(asChat()[0]!);
          return relayReply(request, reply, passthrough, asked, relayedCall, failure, (usage, channelId) => {
            // Charged first: the answer was delivered, whatever keeping it here meets (its conversation deleted meanwhile,
            // whose append then fails and is reported).
            metering.chargeRelayed(bill, usage, estimate);
            if (usage.responseId !== undefined && channelId !== undefined) {
              relayed.remember(accountId, usage.responseId, { channelId, model: parsed.model });
            }
            if (parsed.conversationId && usage.outputItems) {
              conversations.append(accountId, parsed.conversationId, [...parsed.input, ...usage.outputItems], false);
            }
          });
        }
        if (!parsed.stream) return responses.create(parsed, call);
        const { conversation, inputFrom } = responses.conversationOf(parsed, call);
        const chatRequest = chatRequestOf(parsed, conversation);
        const meta = { id: publicId('resp'), createdAt: Math.floor(clock.now() / 1000), newId: publicId };
        // A conversation already too large to store is refused before anything streams; the finished response is stored as streamed.
        if (parsed.store) stored.prepare(conversation, responseObject(parsed, meta), inputFrom);
        const deltas = metering.meter(await chat.stream(chatRequest, call), bill, () => estimateInputTokens(chatRequest));
        const onComplete = (response: Record<string, unknown>) => {
          if (parsed.store) stored.save(accountId, meta.id, stored.prepare(conversation, response, inputFrom));
          responses.addTurn(parsed, call, response);
        };
        // An answer at hand is written without an async step per event.
        return writeSse(request, reply, streamEvents(responsesCodec, deltas, parsed, { ...meta, onComplete }), failure);
      }),
    );
  });

  /** Retrieves, deletes, lists the input items of or cancels a relayed response at the channel that stored it; `done` runs once the channel said yes. */
  const atChannel = (
    request: FastifyRequest<IdParams>,
    reply: FastifyReply,
    where: RelayedResponse,
    operation: 'responses_get' | 'responses_delete' | 'responses_input_items' | 'responses_cancel',
    done?: () => void,
  ) => {
    const call = callOf(request, reply, 'responses', ENDPOINT);
    const { passthrough } = providers.for(call, where.model);
    if (!passthrough) {
      throw new GatewayError(
        'unavailable',
        `Response '${request.params.id}' was stored by a relay channel, and no channel serves model '${where.model}' now.`,
      );
    }
    const query = QUERY_PARAMS[operation] && keptQuery(request, QUERY_PARAMS[operation]);
    const asked = {
      operation,
      model: where.model,
      stream: false,
      responseId: request.params.id,
      channelId: where.channelId,
      ...(query && { query }),
    } as const;
    return relayReply(request, reply, passthrough, asked, call, failure, () => done?.());
  };

  app.get<IdParams>('/v1/responses/:id', async (request, reply) => {
    const { accountId } = request.principal;
    const where = relayed.find(accountId, request.params.id);
    if (where) return atChannel(request, reply, where, 'responses_get');
    return stored.get(accountId, request.params.id);
  });

  app.delete<IdParams>('/v1/responses/:id', async (request, reply) => {
    const { accountId } = request.principal;
    const where = relayed.find(accountId, request.params.id);
    if (where) return atChannel(request, reply, where, 'responses_delete', () => relayed.forget(accountId, request.params.id));
    stored.delete(accountId, request.params.id);
    return { id: request.params.id, object: 'response.deleted', deleted: true };
  });

  app.get<IdParams>('/v1/responses/:id/input_items', async (request, reply) => {
    const { accountId } = request.principal;
    const where = relayed.find(accountId, request.params.id);
    if (where) return atChannel(request, reply, where, 'responses_input_items');
    const query = parseListQuery(request.query, INPUT_ITEMS_LIST);
    const { data, hasMore } = pageOf(stored.inputItems(accountId, request.params.id) as { id: string }[], query);
    return renderList(data, hasMore);
  });

  app.post<IdParams>('/v1/responses/:id/cancel', async (request, reply) => {
    const { accountId } = request.principal;
    const where = relayed.find(accountId, request.params.id);
    if (where) return atChannel(request, reply, where, 'responses_cancel');
    return stored.cancel(accountId, request.params.id);
  });

  app.post(COMPACT, async (request, reply) => {
    const parsed = parseCompactBody(request.body);
    const call = callOf(request, reply, 'responses', COMPACT);
    // Held as a create's is: the most the compaction can cost, from its input (an earlier response's turns kept where it
    // was stored), until it was charged.
    let chatAsked: ChatRequest | undefined;
    const asChat = () => [(chatAsked ??= chatRequestOf(compactionAsResponses(parsed), parsed.input))];
    const bill = chatBillOf(call, request.principal, COMPACT, parsed.model, asChat, parsed.previousResponseId !== null);
    return metering.reserve(bill, asChat).during(async () => {
      const { passthrough } = providers.for(call, parsed.model);
      if (!passthrough) return responses.compact(parsed, call);
      // Relayed as it is, a follow-up to the channel that stored the earlier response (as a create's), billed by the upstream's usage.
      const { accountId } = request.principal;
      const previous = parsed.previousResponseId === null ? undefined : relayed.followUp(accountId, parsed.previousResponseId);
      const asked = {
        operation: 'responses_compact',
        model: parsed.model,
        stream: false,
        ...(previous && { channelId: previous.channelId }),
      } as const;
      const estimate = () => (call.rawBody ? countTokens(call.rawBody.toString('utf8')) : 0);
      return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, estimate));
    });
  });
}

/**
 * The relayed call of a Responses call naming a conversation the gateway keeps (its turn there begun by `inTurn`): its
 * body with the conversation's items before its own input and without `conversation` (the channel does not know it).
 */
function withConversation(conversations: Conversations, call: CallContext, parsed: ResponsesCall, conversationId: string): CallContext {
  const { accountId } = call.principal;
  const earlier = conversations.items(accountId, conversationId, 'conversation').map(asInput);
  const { conversation: _named, ...rest } = call.body as Record<string, unknown>;
  const body = { ...rest, input: [...earlier, ...parsed.input] };
  return { ...call, rawBody: Buffer.from(JSON.stringify(body)), body };
}

/** The query parameters of a retrieve and of an input items list that the channel reads, passed on to it; others stay at the gateway. */
const QUERY_PARAMS: Partial<Record<string, ReadonlySet<string>>> = {
  responses_get: new Set(['include[]', 'include', 'stream', 'starting_after']),
  responses_input_items: new Set(['include[]', 'include', 'after', 'before', 'limit', 'order']),
};

/** The query parameters of the request's URL named in `names`, as `?…`; undefined when none were given. */
function keptQuery(request: FastifyRequest, names: ReadonlySet<string>): string | undefined {
  const asked = new URLSearchParams(queryOf(request));
  const kept = new URLSearchParams([...asked].filter(([name]) => names.has(name)));
  return kept.size > 0 ? `?${kept}` : undefined;
}

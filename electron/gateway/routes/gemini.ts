// Routes of the Gemini API: models/{model}:generateContent, :streamGenerateContent, :countTokens, :embedContent and :batchEmbedContents, under /v1beta and /v1.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { randomBase62 } from '../ids.ts';
import { geminiCodec } from '../protocols/gemini/inbound/codec.ts';
import { streamEvents } from '../protocols/neutral/codec.ts';
import type { ChatRequest } from '../protocols/neutral/chat.ts';
import type { WrittenBytes } from '../protocols/named-event.ts';
import type { GeminiAnswerMeta, GeminiChunk } from '../protocols/gemini/inbound/response.ts';
import { parseCountTokens } from '../protocols/gemini/inbound/request.ts';
import { estimateInputTokens, relayInputEstimate } from '../protocols/neutral/tokens.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { writeJsonArray, writeSseData, writesWhole } from '../server/sse.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { ChatMetering, chatBillOf } from '../services/chat-metering.ts';
import { geminiEmbeddings } from './gemini-embeddings.ts';
import { invalid, notFound } from '../errors.ts';
import { countedTokens } from './token-count.ts';

/** The API versions the Gemini routes answer on: the spec's v1beta, and v1 that @google/genai uses by default. */
const VERSIONS = ['v1beta', 'v1'] as const;

type Target = { Params: { target: string }; Querystring: Record<string, unknown> };

export async function geminiRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, events, providers } = options.context;
  const metering = new ChatMetering(billing);
  const failure = streamFailure('gemini', (error) => void events.emit('error', error));
  const embed = geminiEmbeddings(options.context, failure);

  const generate = async (request: FastifyRequest<Target>, reply: FastifyReply, model: string, stream: boolean) => {
    const chatRequest = geminiCodec.parse({ body: request.body, model });
    const endpoint = `/${versionOf(request)}/models:${stream ? 'streamGenerateContent' : 'generateContent'}`;
    const call = callOf(request, reply, 'gemini', endpoint);
    const chats = () => [chatRequest];
    const bill = chatBillOf(call, request.principal, endpoint, model, chats);
    // The most the call can cost is held against the token's quota until it ended (and was charged).
    return metering.reserve(bill, chats).during(async () => {
      const { chat, passthrough } = providers.for(call, model);
      if (passthrough) {
        const operation = stream ? 'streamGenerateContent' : 'generateContent';
        const asked = { operation, model, stream, apiVersion: versionOf(request), sse: request.query['alt'] === 'sse' } as const;
        const estimate = relayInputEstimate(chatRequest);
        return relayReply(request, reply, passthrough, asked, call, failure, (usage) => metering.chargeRelayed(bill, usage, estimate));
      }
      const meta = { model, responseId: randomBase62(22) };
      if (!stream) {
        const result = await chat.complete(chatRequest, call);
        await metering.chargeResult(bill, result);
        return geminiCodec.render(result, chatRequest, meta);
      }
      const deltas = metering.meter(await chat.stream(chatRequest, call), bill, () => estimateInputTokens(chatRequest));
      // An answer at hand is written without an async step per chunk; a kept one's SSE frames as the bytes rendered once.
      const sse = request.query['alt'] === 'sse';
      const chunks = streamEvents<ChatRequest, GeminiAnswerMeta, GeminiChunk | WrittenBytes>(
        geminiCodec,
        deltas,
        chatRequest,
        meta,
        sse && writesWhole(request),
      );
      return (sse ? writeSseData : writeJsonArray)(request, reply, chunks, failure);
    });
  };

  const countTokens = async (request: FastifyRequest<Target>, reply: FastifyReply, model: string) => {
    const chatRequest = parseCountTokens(request.body, model);
    const call = callOf(request, reply, 'gemini', `/${versionOf(request)}/models:countTokens`);
    const provider = providers.for(call, model);
    if (provider.passthrough) {
      const asked = { operation: 'countTokens', model, stream: false, apiVersion: versionOf(request) } as const;
      return relayReply(request, reply, provider.passthrough, asked, call, failure);
    }
    return { totalTokens: countedTokens(await provider.chat.countTokens(chatRequest, call), reply) };
  };

  for (const version of VERSIONS) {
    // One parametric segment holds "{model}:{method}"; Fastify cannot split a segment on ':' itself.
    app.post<Target>(`/${version}/models/:target`, async (request, reply) => {
      const { model, method } = splitTarget(request.params.target);
      switch (method) {
        case 'generateContent':
          return generate(request, reply, model, false);
        case 'streamGenerateContent':
          return generate(request, reply, model, true);
        case 'countTokens':
          return countTokens(request, reply, model);
        case 'embedContent':
          return embed(request, reply, model, versionOf(request), false);
        case 'batchEmbedContents':
          return embed(request, reply, model, versionOf(request), true);
        default:
          throw notFound(`Method '${method}' is not found for model '${model}'.`);
      }
    });
  }
}

/** `gemini-2.5-flash:generateContent` → model and method; the method follows the last ':'. */
function splitTarget(target: string): { model: string; method: string } {
  const at = target.lastIndexOf(':');
  if (at <= 0) throw notFound(`Unknown endpoint: models/${target} (expected models/{model}:{method})`);
  const model = target.slice(0, at);
  if (model.trim() === '') throw invalid('* model: must not be empty', 'model');
  return { model, method: target.slice(at + 1) };
}

function versionOf(request: FastifyRequest): string {
  return request.url.startsWith('/v1beta/') ? 'v1beta' : 'v1';
}

// Routes of the Gemini API in simulate mode: models/{model}:generateContent, :streamGenerateContent and :countTokens, under /v1beta and /v1.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { randomBase62 } from '../ids.ts';
import { parseCountTokens, parseGenerateContent } from '../protocols/gemini/inbound/request.ts';
import { toGenerateContentChunks, toGenerateContentResponse } from '../protocols/gemini/inbound/response.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { estimateInputTokens } from '../protocols/neutral/tokens.ts';
import { writeJsonArray, writeSse } from '../server/sse.ts';
import { invalid, notFound } from '../errors.ts';

/** The API versions the Gemini routes answer on: the spec's v1beta, and v1 that @google/genai uses by default. */
const VERSIONS = ['v1beta', 'v1'] as const;

type Target = { Params: { target: string }; Querystring: Record<string, unknown> };

export async function geminiRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing } = options.context;

  const generate = async (request: FastifyRequest<Target>, reply: FastifyReply, model: string, stream: boolean) => {
    const chat = parseGenerateContent(request.body, model);
    const result = simulateChat(chat);
    billing.charge(request.principal, {
      endpoint: `/${versionOf(request)}/models:${stream ? 'streamGenerateContent' : 'generateContent'}`,
      model,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    });
    const meta = { model, responseId: randomBase62(22) };
    if (!stream) return toGenerateContentResponse(result, meta);
    const chunks = toGenerateContentChunks(result, meta, streamPieces);
    if (request.query['alt'] === 'sse')
      return writeSse(
        request,
        reply,
        chunks.map((data) => ({ data })),
      );
    return writeJsonArray(request, reply, chunks);
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
          return { totalTokens: estimateInputTokens(parseCountTokens(request.body, model)) };
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

// POST /v1/completions (the legacy OpenAI completions API) in simulate mode: JSON or SSE chunks, billed per call.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { publicId } from '../ids.ts';
import { parseCompletionBody, textCompletionChunks, toTextCompletion } from '../protocols/openai/inbound/completions.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { DONE, writeSse } from '../server/sse.ts';

export async function openaiCompletionsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock } = options.context;
  app.post('/v1/completions', async (request, reply) => {
    const call = parseCompletionBody(request.body);
    const answers = call.requests.map((chat, index) => ({ prompt: call.prompts[index]!, result: simulateChat(chat) }));
    billing.charge(request.principal, {
      endpoint: '/v1/completions',
      model: call.model,
      inputTokens: answers.reduce((sum, { result }) => sum + result.usage.inputTokens, 0),
      outputTokens: answers.reduce((sum, { result }) => sum + result.usage.outputTokens, 0),
    });
    const meta = { id: publicId('cmpl'), created: Math.floor(clock.now() / 1000), model: call.model };
    if (!call.stream) return toTextCompletion(call, answers, meta);
    return writeSse(request, reply, [...textCompletionChunks(call, answers, meta, streamPieces), DONE]);
  });
}

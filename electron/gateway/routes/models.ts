// Model listing: GET /v1/models (OpenAI shape, or Anthropic's with an anthropic-version header) and GET /v1beta/models (Gemini shape).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { SIM_MODELS, SIM_MODELS_CREATED, type SimModel } from '../providers/simulate/models.ts';
import { rfc3339 } from '../time.ts';
import { notFound } from '../errors.ts';
import { shownPath } from '../server/shown-path.ts';

type IdParams = { Params: { id: string } };

const openaiModel = (model: SimModel) => ({ id: model.id, object: 'model', created: SIM_MODELS_CREATED, owned_by: 'gatehouse' });
const anthropicModel = (model: SimModel) => ({
  type: 'model',
  id: model.id,
  display_name: model.displayName,
  created_at: rfc3339(SIM_MODELS_CREATED * 1000).replace('+00:00', 'Z'),
});
const geminiModel = (model: SimModel) => ({
  name: `models/${model.id}`,
  version: '1',
  displayName: model.displayName,
  description: `Gatehouse simulated model: ${model.capability}`,
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: model.geminiMethods,
});

/** The simulated models plus each configured alias, described like the model it stands for. */
function catalogue(aliases: Readonly<Record<string, string>>): SimModel[] {
  const extra = Object.entries(aliases).map(([alias, target]) => {
    const base = SIM_MODELS.find((model) => model.id === target) ?? SIM_MODELS[0]!;
    return { ...base, id: alias, displayName: `${alias} (alias of ${target})` };
  });
  return [...SIM_MODELS, ...extra];
}

/** Any name is served in simulate mode; unknown names are described as chat models. */
function modelNamed(models: SimModel[], id: string): SimModel {
  return models.find((model) => model.id === id) ?? { ...SIM_MODELS[0]!, id, displayName: id };
}

const wantsAnthropic = (request: FastifyRequest) => typeof request.headers['anthropic-version'] === 'string';
/** Gemini callers: @google/genai calls GET /v1/models by default and sends `x-goog-api-key` (or `?key=`). */
const wantsGemini = (request: FastifyRequest) =>
  typeof request.headers['x-goog-api-key'] === 'string' || typeof (request.query as Record<string, unknown>)['key'] === 'string';
const geminiList = (models: SimModel[]) => ({ models: models.map(geminiModel) });

export async function modelsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const models = catalogue(options.context.runtime.modelAliases);
  app.get('/v1/models', async (request) => {
    if (wantsGemini(request)) return geminiList(models);
    if (!wantsAnthropic(request)) return { object: 'list', data: models.map(openaiModel) };
    const data = models.map(anthropicModel);
    return { data, has_more: false, first_id: data[0]!.id, last_id: data.at(-1)!.id };
  });
  app.get<IdParams>('/v1/models/:id', async (request) => {
    const model = modelNamed(models, request.params.id);
    if (wantsGemini(request)) return geminiModel(model);
    return wantsAnthropic(request) ? anthropicModel(model) : openaiModel(model);
  });
  app.get('/v1beta/models', async () => geminiList(models));
  app.get<IdParams>('/v1beta/models/:id', async (request) => {
    if (request.params.id.includes(':')) throw notFound(`Unknown endpoint: GET ${shownPath(request.url)}`);
    return geminiModel(modelNamed(models, request.params.id));
  });
}

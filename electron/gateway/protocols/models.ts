// The three shapes of the model catalogue: OpenAI's list, Anthropic's page, Gemini's models; and which one a caller of /v1/models reads.
import { rfc3339 } from '../time.ts';

/** A model as the catalogue describes it (the provider seam's ModelInfo). */
export interface CatalogueModel {
  id: string;
  displayName: string;
  /** What the model is for, shown as its description. */
  capability: string;
  /** Gemini's names of the methods the model serves. */
  geminiMethods: string[];
  /** Unix seconds. */
  created: number;
}

/** The families whose catalogue shape /v1/models answers in. */
export type CatalogueShape = 'openai' | 'anthropic' | 'gemini';

/**
 * The shape a caller of /v1/models reads: Gemini for a `x-goog-api-key` header or `?key=` (@google/genai calls
 * GET /v1/models by default), Anthropic for an `anthropic-version` header, else OpenAI.
 */
export function catalogueShapeOf(headers: Readonly<Record<string, unknown>>, query: unknown): CatalogueShape {
  const key = typeof query === 'object' && query !== null ? (query as Record<string, unknown>)['key'] : undefined;
  if (typeof headers['x-goog-api-key'] === 'string' || typeof key === 'string') return 'gemini';
  return typeof headers['anthropic-version'] === 'string' ? 'anthropic' : 'openai';
}

/** The list of models in `shape`. */
export function renderModelList(shape: CatalogueShape, models: readonly CatalogueModel[]) {
  switch (shape) {
    case 'gemini':
      return { models: models.map(geminiModel) };
    case 'anthropic': {
      const data = models.map(anthropicModel);
      return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    }
    default:
      return { object: 'list', data: models.map(openaiModel) };
  }
}

/** One model in `shape`. */
export function renderModel(shape: CatalogueShape, model: CatalogueModel) {
  return shape === 'gemini' ? geminiModel(model) : shape === 'anthropic' ? anthropicModel(model) : openaiModel(model);
}

const openaiModel = (model: CatalogueModel) => ({ id: model.id, object: 'model', created: model.created, owned_by: 'gatehouse' });

const anthropicModel = (model: CatalogueModel) => ({
  type: 'model',
  id: model.id,
  display_name: model.displayName,
  created_at: rfc3339(model.created * 1000).replace('+00:00', 'Z'),
});

const geminiModel = (model: CatalogueModel) => ({
  name: `models/${model.id}`,
  version: '1',
  displayName: model.displayName,
  description: `Gatehouse simulated model: ${model.capability}`,
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: model.geminiMethods,
});

// POST /v1/embeddings: simulated, deterministic embeddings in the OpenAI shape (float arrays or base64 float32).
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { objectBody, optionalNumber, optionalString, requiredString } from '../protocols/fields.ts';
import { DEFAULT_DIMENSIONS, embed, MAX_DIMENSIONS, toBase64, tokensAsText } from '../providers/simulate/embeddings.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import { invalid } from '../errors.ts';

/** Most inputs one request may carry (as on the real API). */
const MAX_INPUTS = 2048;

export async function embeddingsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing } = options.context;
  app.post('/v1/embeddings', async (request) => {
    const fields = objectBody(request.body);
    const model = requiredString(fields, 'model');
    const texts = inputTexts(fields['input']);
    const dimensions = optionalNumber(fields, 'dimensions', { integer: true, min: 1, max: MAX_DIMENSIONS }) ?? DEFAULT_DIMENSIONS;
    const format = optionalString(fields, 'encoding_format') ?? 'float';
    if (format !== 'float' && format !== 'base64') {
      throw invalid(`Invalid value for 'encoding_format': expected 'float' or 'base64', got '${format}'.`, 'encoding_format');
    }
    const data = texts.map((text, index) => {
      const vector = embed(text, dimensions);
      return { object: 'embedding', index, embedding: format === 'base64' ? toBase64(vector) : Array.from(vector) };
    });
    const promptTokens = texts.reduce((sum, text) => sum + countTokens(text), 0);
    billing.charge(request.principal, { endpoint: '/v1/embeddings', model, inputTokens: promptTokens, outputTokens: 0 });
    return { object: 'list', data, model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
  });
}

/** `input` as texts: a string, strings, a token array, or token arrays; empty inputs are refused. */
function inputTexts(input: unknown): string[] {
  if (input === undefined || input === null) throw invalid("Missing required parameter: 'input'.", 'input');
  const items = typeof input === 'string' || isTokenArray(input) ? [input] : input;
  if (!Array.isArray(items) || items.length === 0) {
    throw invalid("Invalid value for 'input': expected a non-empty string, array of strings, or array of token arrays.", 'input');
  }
  if (items.length > MAX_INPUTS) throw invalid(`Invalid value for 'input': at most ${MAX_INPUTS} inputs per request.`, 'input');
  return items.map((item, index) => {
    if (typeof item === 'string' && item !== '') return item;
    if (isTokenArray(item) && item.length > 0) return tokensAsText(item);
    throw invalid(`Invalid value for 'input[${index}]': expected a non-empty string or a non-empty array of token ids.`, 'input');
  });
}

function isTokenArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => Number.isInteger(item) && item >= 0);
}

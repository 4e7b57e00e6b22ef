// Gemini's embeddings shapes: :embedContent and :batchEmbedContents requests checked into texts and one output size, and their answers rendered.
import { invalid } from '../../../errors.ts';
import { asObject, objectBody, optionalNumber, type Fields } from '../../fields.ts';
import { MAX_DIMENSIONS, MAX_INPUTS } from '../../openai/inbound/embeddings.ts';

/** The texts to embed, in order, and the vectors' size (absent: the model's own). */
export interface GeminiEmbeddingsRequest {
  model: string;
  inputs: string[];
  dimensions?: number;
}

/** The body of `models/{model}:embedContent`: `{content: {parts: [{text}]}, taskType?, title?, outputDimensionality?}`. */
export function parseEmbedContent(body: unknown, model: string): GeminiEmbeddingsRequest {
  const { text, dimensions } = embedRequestOf(objectBody(body), '');
  return { model, inputs: [text], ...(dimensions !== undefined && { dimensions }) };
}

/** The body of `models/{model}:batchEmbedContents`: `{requests: [...]}`, each an embedContent body (with its `model`), all of one output size. */
export function parseBatchEmbedContents(body: unknown, model: string): GeminiEmbeddingsRequest {
  const requests = objectBody(body)['requests'];
  if (!Array.isArray(requests) || requests.length === 0) throw invalid('* requests: must be a non-empty list', 'requests');
  if (requests.length > MAX_INPUTS) throw invalid(`* requests: at most ${MAX_INPUTS} requests per batch`, 'requests');
  const each = requests.map((request, index) => embedRequestOf(asObject(request, `requests[${index}]`), `requests[${index}].`));
  const dimensions = each[0]!.dimensions;
  if (each.some((request) => request.dimensions !== dimensions)) {
    throw invalid('* requests: every request of a batch must ask the same outputDimensionality', 'requests');
  }
  return { model, inputs: each.map((request) => request.text), ...(dimensions !== undefined && { dimensions }) };
}

/** `{embedding: {values}}`, the answer of embedContent. */
export function renderEmbedding(vector: Float32Array) {
  return { embedding: { values: Array.from(vector) } };
}

/** `{embeddings: [{values}, …]}`, the answer of batchEmbedContents, one per request in order. */
export function renderEmbeddings(vectors: readonly Float32Array[]) {
  return { embeddings: vectors.map((vector) => ({ values: Array.from(vector) })) };
}

/** One request's text (its parts' texts joined) and output size. */
function embedRequestOf(fields: Fields, prefix: string): { text: string; dimensions?: number } {
  const content = asObject(fields['content'], `${prefix}content`);
  const parts = content['parts'];
  if (!Array.isArray(parts) || parts.length === 0)
    throw invalid(`* ${prefix}content.parts: must be a non-empty list`, `${prefix}content.parts`);
  const text = parts
    .map((part, index) => {
      const value = asObject(part, `${prefix}content.parts[${index}]`)['text'];
      if (typeof value !== 'string')
        throw invalid(`* ${prefix}content.parts[${index}].text: only text parts can be embedded`, `${prefix}content.parts`);
      return value;
    })
    .join('');
  if (text === '') throw invalid(`* ${prefix}content: the text to embed must not be empty`, `${prefix}content`);
  const dimensions = optionalNumber(
    fields,
    'outputDimensionality',
    { integer: true, min: 1, max: MAX_DIMENSIONS },
    `${prefix}outputDimensionality`,
  );
  return { text, ...(dimensions !== undefined && { dimensions }) };
}

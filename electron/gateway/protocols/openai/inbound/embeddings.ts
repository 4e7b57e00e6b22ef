// The OpenAI embeddings shape: a request's model, inputs, dimensions and encoding checked, and the list of vectors rendered (float arrays or base64 float32).
import { invalid } from '../../../errors.ts';
import { objectBody, optionalNumber, optionalString, requiredString } from '../../fields.ts';
import { countTokens } from '../../neutral/tokens.ts';

/** Most inputs one request may carry (as on the real API). */
export const MAX_INPUTS = 2048;
/** Largest `dimensions` accepted. */
export const MAX_DIMENSIONS = 8192;

/** How vectors are written in the answer. */
export type EmbeddingEncoding = 'float' | 'base64';

/** An embeddings request as the client sent it, checked. */
export interface EmbeddingsRequest {
  model: string;
  /** Texts or token-id arrays, none empty, in order. */
  inputs: (string | number[])[];
  /** Absent: the model's own size. */
  dimensions?: number;
  encoding: EmbeddingEncoding;
}

/** The body of POST /v1/embeddings, or a 400 naming the first field that is wrong. */
export function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const inputs = inputsOf(fields['input']);
  const dimensions = optionalNumber(fields, 'dimensions', { integer: true, min: 1, max: MAX_DIMENSIONS });
  const encoding = optionalString(fields, 'encoding_format') ?? 'float';
  if (encoding !== 'float' && encoding !== 'base64') {
    throw invalid(`Invalid value for 'encoding_format': expected 'float' or 'base64', got '${encoding}'.`, 'encoding_format');
  }
  return { model, inputs, ...(dimensions !== undefined && { dimensions }), encoding };
}

/** The answer: one embedding per input, in order, and the tokens read. */
export function renderEmbeddings(model: string, vectors: readonly Float32Array[], inputTokens: number, encoding: EmbeddingEncoding) {
  const data = vectors.map((vector, index) => ({
    object: 'embedding',
    index,
    embedding: encoding === 'base64' ? toBase64(vector) : Array.from(vector),
  }));
  return { object: 'list', data, model, usage: { prompt_tokens: inputTokens, total_tokens: inputTokens } };
}

/** Little-endian float32 bytes of a vector, base64-encoded (what the openai SDK decodes). */
export function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

/** The input tokens of embedding `inputs`: each text's count, each token array's length (what a quota holds and a relayed call's estimate). */
export function embeddingInputTokens(inputs: EmbeddingsRequest['inputs']): number {
  return inputs.reduce<number>((sum, input) => sum + (typeof input === 'string' ? countTokens(input) : input.length), 0);
}

/** `input` as a list: a string, strings, a token array, or token arrays; empty inputs are refused. */
function inputsOf(input: unknown): (string | number[])[] {
  if (input === undefined || input === null) throw invalid("Missing required parameter: 'input'.", 'input');
  const items = typeof input === 'string' || isTokenArray(input) ? [input] : input;
  if (!Array.isArray(items) || items.length === 0) {
    throw invalid("Invalid value for 'input': expected a non-empty string, array of strings, or array of token arrays.", 'input');
  }
  if (items.length > MAX_INPUTS) throw invalid(`Invalid value for 'input': at most ${MAX_INPUTS} inputs per request.`, 'input');
  return items.map((item: unknown, index) => {
    if (typeof item === 'string' && item !== '') return item;
    if (isTokenArray(item)) return item;
    throw invalid(`Invalid value for 'input[${index}]': expected a non-empty string or a non-empty array of token ids.`, 'input');
  });
}

function isTokenArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => Number.isInteger(item) && item >= 0);
}

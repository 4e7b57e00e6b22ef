// The OpenAI moderations shape: `input` (a string, strings, or text and image parts classified together) and `model` checked, and the verdicts rendered.
import { invalid } from '../../../errors.ts';
import { asObject, missing, objectBody, optionalString, requiredString } from '../../fields.ts';

/** Most inputs (strings, or parts of one multimodal input) one request may carry. */
export const MAX_MODERATION_INPUTS = 32;
/** Most characters of text (and image URLs) one request may carry, all inputs together. */
export const MAX_MODERATION_CHARS = 1_000_000;
/** The model named when the request names none, as on the real API. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/** One part of what is classified together. */
type Part = { type: 'text'; text: string } | { type: 'image'; url: string };

/** A moderation request, checked: each input is a list of parts judged together. */
export interface ModerationRequest {
  model: string;
  inputs: Part[][];
}

/** The verdict on one input, as the provider gives it. */
export interface ModerationResult {
  flagged: Record<string, boolean>;
  scores: Record<string, number>;
  appliedTo: Record<string, string[]>;
}

export function parseModerationRequest(body: unknown): ModerationRequest {
  const asked = readModerationRequest(body);
  const chars = asked.inputs.flat().reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : part.url.length), 0);
  if (chars > MAX_MODERATION_CHARS) {
    throw invalid(`Invalid 'input': ${chars} characters; at most ${MAX_MODERATION_CHARS} per request.`, 'input');
  }
  return asked;
}

function readModerationRequest(body: unknown): ModerationRequest {
  const fields = objectBody(body);
  const model = optionalString(fields, 'model') ?? DEFAULT_MODERATION_MODEL;
  const input = fields['input'];
  if (input === undefined || input === null) throw missing('input');
  if (typeof input === 'string') return { model, inputs: [[{ type: 'text', text: input }]] };
  if (!Array.isArray(input))
    throw invalid("Invalid type for 'input': expected a string, an array of strings or an array of input objects.", 'input');
  if (input.length === 0) throw invalid("Invalid 'input': empty array. Expected an array with minimum length 1.", 'input');
  if (input.length > MAX_MODERATION_INPUTS) {
    throw invalid(`Invalid 'input': at most ${MAX_MODERATION_INPUTS} items per request (got ${input.length}).`, 'input');
  }
  if (input.every((item) => typeof item === 'string')) return { model, inputs: input.map((text: string) => [{ type: 'text', text }]) };
  // An array of input objects is one input whose parts are classified together (one result).
  return { model, inputs: [input.map((item, index) => partOf(item, `input[${index}]`))] };
}

function partOf(item: unknown, path: string): Part {
  const part = asObject(item, path);
  if (part['type'] === 'text') return { type: 'text', text: requiredString(part, 'text', `${path}.text`) };
  if (part['type'] === 'image_url') {
    const image = asObject(part['image_url'], `${path}.image_url`);
    return { type: 'image', url: requiredString(image, 'url', `${path}.image_url.url`) };
  }
  throw invalid(`Invalid value for '${path}.type': expected 'text' or 'image_url'.`, `${path}.type`);
}

/** The answer: one result per input with its flags, scores and the input types each score applies to. */
export function renderModerations(id: string, model: string, results: readonly ModerationResult[]) {
  return {
    id,
    model,
    results: results.map((result) => ({
      flagged: Object.values(result.flagged).some(Boolean),
      categories: result.flagged,
      category_scores: result.scores,
      category_applied_input_types: result.appliedTo,
    })),
  };
}

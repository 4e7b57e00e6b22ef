// POST /v1/responses/compact: its body checked, what a compaction keeps of a conversation, and the compacted response rendered.
import { invalid } from '../../../errors.ts';
import { absent, asObject, missing, objectBody, optionalString, requiredString } from '../../fields.ts';
import type { ResponseItem } from './items.ts';
import { normalizeInput } from './items.ts';
import { usageOf } from './response.ts';

/** A validated compact call. */
export interface CompactCall {
  model: string;
  input: ResponseItem[];
  instructions: string | null;
  previousResponseId: string | null;
  /** `image.context_compression` as asked (`auto` is answered `disabled`: the simulator keeps images as they are); absent when not asked. */
  imageCompression?: 'enabled' | 'disabled';
}

/** The body of `POST /v1/responses/compact`; the prompt cache and service tier fields are accepted and have no effect. */
export function parseCompactBody(body: unknown): CompactCall {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const previousResponseId = optionalString(fields, 'previous_response_id') ?? null;
  if (absent(fields, 'input') && previousResponseId === null) throw missing('input');
  const image = absent(fields, 'image') ? undefined : asObject(fields['image'], 'image');
  const compression =
    image === undefined ? undefined : (optionalString(image, 'context_compression', 'image.context_compression') ?? 'auto');
  if (compression !== undefined && !['auto', 'enabled', 'disabled'].includes(compression)) {
    throw invalid("Invalid value for 'image.context_compression': expected 'auto', 'enabled' or 'disabled'.", 'image.context_compression');
  }
  return {
    model,
    input: normalizeInput(fields['input']),
    instructions: optionalString(fields, 'instructions') ?? null,
    previousResponseId,
    ...(compression !== undefined && { imageCompression: compression === 'enabled' ? 'enabled' : 'disabled' }),
  };
}

/** What a compaction keeps: the user's messages, in order, then the compaction item. */
export function compactedOutput(
  conversation: readonly ResponseItem[],
  compaction: ResponseItem,
  newId: (prefix: string) => string,
): ResponseItem[] {
  const kept = conversation
    .filter((item) => item['type'] === 'message' && item['role'] === 'user')
    .map((item) => ({ id: typeof item['id'] === 'string' ? item['id'] : newId('msg'), ...item, status: 'completed' }));
  return [...kept, compaction];
}

/** The compacted response object. */
export function compactedResponse(
  id: string,
  createdAt: number,
  output: ResponseItem[],
  usage: { inputTokens: number; outputTokens: number },
  imageCompression?: 'enabled' | 'disabled',
) {
  return {
    id,
    object: 'response.compaction',
    created_at: createdAt,
    output,
    usage: usageOf(usage),
    ...(imageCompression && { image: { context_compression: imageCompression } }),
  };
}

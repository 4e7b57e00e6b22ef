// The shapes of the stored chat completions API: a request message as listed by /messages, the list query's filters, and the update body.
import { invalid } from '../../../errors.ts';
import { isObject, objectBody } from '../../fields.ts';
import { metadataOf } from '../../metadata.ts';

/** A message of a stored completion's request as `GET /v1/chat/completions/{id}/messages` lists it: an id, its text, and its parts when it had parts. */
export function storedMessage(message: unknown, id: string) {
  const fields = isObject(message) ? message : {};
  const content = fields['content'];
  const parts = Array.isArray(content) ? content : null;
  const text =
    typeof content === 'string'
      ? content
      : parts
        ? parts.map((part) => (isObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('')
        : null;
  return {
    id,
    role: fields['role'],
    content: text,
    ...(typeof fields['name'] === 'string' && { name: fields['name'] }),
    ...(Array.isArray(fields['tool_calls']) && { tool_calls: fields['tool_calls'] }),
    ...(typeof fields['tool_call_id'] === 'string' && { tool_call_id: fields['tool_call_id'] }),
    refusal: null,
    content_parts: parts,
  };
}

/** The `model` and `metadata[key]=value` filters of a list call (the SDKs write metadata as bracketed query keys). */
export function listFilters(query: unknown): { model?: string; metadata?: Record<string, string> } {
  const fields = (isObject(query) ? query : {}) as Record<string, unknown>;
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match && typeof value === 'string') metadata[match[1]!] = value;
  }
  const model = fields['model'];
  if (model !== undefined && typeof model !== 'string') throw invalid("Invalid 'model': expected one model name.", 'model');
  return { ...(model !== undefined && { model }), ...(Object.keys(metadata).length > 0 && { metadata: metadataOf(metadata) }) };
}

/** The body of an update: `metadata`, an object or null (which clears it). */
export function parseMetadataUpdate(body: unknown): Record<string, string> {
  const fields = objectBody(body);
  if (!('metadata' in fields)) throw invalid("Missing required parameter: 'metadata'.", 'metadata');
  return fields['metadata'] === null ? {} : metadataOf(fields['metadata']);
}

// The Gemini upstream kind: models/{model}:{method} (generate, count, embed) under the caller's API version, x-goog-api-key credential, usageMetadata of answers and stream chunks.
import { GatewayError } from '../../../errors.ts';
import { count, editJson, holdsNone, record, renameField, trimBase, type RelayKind } from '../kind.ts';

const METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents']);

export const geminiKind: RelayKind = {
  url(channel, request) {
    if (!METHODS.has(request.operation)) {
      throw new GatewayError('not_implemented', `Relay of ${request.operation} to a Gemini channel is not built yet.`);
    }
    const version = request.apiVersion ?? 'v1beta';
    const query = request.sse ? '?alt=sse' : '';
    return `${trimBase(channel.baseUrl)}/${version}/models/${encodeURIComponent(channel.upstreamModel)}:${request.operation}${query}`;
  },
  auth: (key) => ({ 'x-goog-api-key': key }),
  // The model is in the path: the body goes as it came, but for a batch's requests, which each name the model too.
  prepare: (raw, channel, request, parsed) => ({
    body: request.operation === 'batchEmbedContents' ? editJson(raw, (body) => namedIn(body, channel.upstreamModel), parsed) : raw,
    hideUsage: false,
  }),
  // An answer, an SSE chunk, or one element of a JSON array stream (the tap cuts the array into its elements).
  read(data, usage) {
    const json = record(data);
    if (!json) return true;
    const metadata = record(json['usageMetadata']);
    if (metadata) {
      usage.inputTokens = count(metadata['promptTokenCount']) ?? usage.inputTokens;
      const output = count(metadata['candidatesTokenCount']);
      if (output !== undefined) usage.outputTokens = output + (count(metadata['thoughtsTokenCount']) ?? 0);
    }
    for (const candidate of Array.isArray(json['candidates']) ? json['candidates'] : []) {
      const parts = record(record(candidate)?.['content'])?.['parts'];
      for (const part of Array.isArray(parts) ? parts : []) {
        const text = record(part)?.['text'];
        if (typeof text === 'string') usage.delivered.add(text);
      }
    }
    return true;
  },
  // Answers and stream chunks carry `modelVersion`; a JSON array stream (no alt=sse) comes here element by element.
  renameModel: (data, name) => renameField(record(data), 'modelVersion', name),
  // Usage sits under `usageMetadata`.
  onlyDelivers: (data) => holdsNone(data, USAGE_WORD),
};

/** The word whose absence from an event's text means `read` takes only delivered text from it. */
const USAGE_WORD = ['usage'] as const;

/** Sets the `model` of each of a batch's requests to the channel's model (`models/{name}`); true when it changed one. */
function namedIn(body: Record<string, unknown>, upstreamModel: string): boolean {
  const requests = body['requests'];
  if (!Array.isArray(requests)) return false;
  const name = `models/${upstreamModel}`;
  if (requests.every((request) => record(request)?.['model'] === name)) return false;
  body['requests'] = requests.map((request: unknown) => (record(request) ? { ...record(request), model: name } : request));
  return true;
}

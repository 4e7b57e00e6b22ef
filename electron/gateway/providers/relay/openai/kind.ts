// The OpenAI upstream kind: paths under the channel's /v1 base (chat, completions, embeddings, rerank, moderations, images, audio, responses; Cohere's /v2/rerank beside it), Bearer credential, stream usage asked for (and hidden when the caller did not ask), usage of chunks and answers.
import { GatewayError } from '../../../errors.ts';
import { fitChatBody } from '../../../protocols/openai/outbound/chat-compat.ts';
import { count, editJson, holdsNone, record, renameField, trimBase, type RelayKind, type UsageCount } from '../kind.ts';
import { readResponsesEvent } from './responses.ts';

const PATHS: Partial<Record<string, string>> = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  rerank: '/rerank',
  rerank_v2: '/rerank',
  images_generations: '/images/generations',
  speech: '/audio/speech',
  images_edits: '/images/edits',
  transcriptions: '/audio/transcriptions',
  translations: '/audio/translations',
  responses: '/responses',
  responses_get: '/responses',
  responses_delete: '/responses',
  responses_input_items: '/responses',
  responses_cancel: '/responses',
  responses_compact: '/responses/compact',
  moderations: '/moderations',
  images_variations: '/images/variations',
};

/** What follows a stored response's id in the path of the operations on it. */
const ID_SUFFIXES: Partial<Record<string, string>> = { responses_input_items: '/input_items', responses_cancel: '/cancel' };

export const openaiKind: RelayKind = {
  url(channel, request) {
    const path = PATHS[request.operation];
    if (!path) throw new GatewayError('not_implemented', `Relay of ${request.operation} to an OpenAI channel is not built yet.`);
    const id = request.responseId === undefined ? '' : `/${encodeURIComponent(request.responseId)}${ID_SUFFIXES[request.operation] ?? ''}`;
    return `${baseOf(channel.baseUrl, request.operation)}${path}${id}${request.query ?? ''}`;
  },
  auth: (key) => ({ authorization: `Bearer ${key}` }),
  prepare(raw, channel, request, parsed) {
    let hideUsage = false;
    const body = editJson(
      raw,
      (json) => {
        let changed = false;
        if (json['model'] !== channel.upstreamModel) {
          json['model'] = channel.upstreamModel;
          changed = true;
        }
        if (request.operation === 'chat' && fitChatBody(json, channel.compat)) changed = true;
        if (request.stream && (request.operation === 'chat' || request.operation === 'completions')) {
          const options = record(json['stream_options']);
          if (options?.['include_usage'] !== true) {
            json['stream_options'] = { ...options, include_usage: true };
            hideUsage = true;
            changed = true;
          }
        }
        return changed;
      },
      parsed,
    );
    return { body, hideUsage };
  },
  read(data, usage, hideUsage) {
    const json = record(data);
    if (!json) return true;
    if (readResponsesEvent(json, usage)) return true;
    readTranscript(json, usage);
    const choices = Array.isArray(json['choices']) ? json['choices'] : [];
    for (const choice of choices) collectText(record(choice), usage);
    const reported = record(json['usage']);
    if (reported) {
      // Chat, completions and embeddings say prompt/completion; images input/output; rerank only a total.
      usage.inputTokens =
        count(reported['prompt_tokens']) ?? count(reported['input_tokens']) ?? count(reported['total_tokens']) ?? usage.inputTokens;
      usage.outputTokens = count(reported['completion_tokens']) ?? count(reported['output_tokens']) ?? usage.outputTokens;
      // The final usage chunk of a stream has no choices; the caller sees it only if it asked for it.
      if (hideUsage && choices.length === 0) return false;
    }
    return true;
  },
  // Answers and stream chunks carry `model`.
  renameModel: (data, name) => renameField(record(data), 'model', name),
  // Usage (a chat chunk's, a transcript's duration) sits under `usage`; a Responses API event names `response`.
  onlyDelivers: (data) => holdsNone(data, ONLY_DELIVERS_UNLESS),
};

/** Words whose absence from an event's text means `read` takes only delivered text from it. */
const ONLY_DELIVERS_UNLESS = ['usage', 'response'] as const;

/**
 * The base an operation's path goes under: the channel's, but Cohere's v2 rerank sits beside its /v1 (`https://host/v1` →
 * `https://host/v2`; a base that does not end in /v1 gets /v2 added).
 */
function baseOf(base: string, operation: string): string {
  const trimmed = trimBase(base);
  return operation === 'rerank_v2' ? `${trimmed.replace(/\/v1$/, '')}/v2` : trimmed;
}

/** Text and tool arguments of a streamed choice (delta), a whole answer's choice (message) or a legacy completion choice (text). */
function collectText(choice: Record<string, unknown> | undefined, usage: UsageCount): void {
  if (!choice) return;
  if (typeof choice['text'] === 'string') usage.delivered.add(choice['text']);
  const delta = record(choice['delta']) ?? record(choice['message']);
  if (!delta) return;
  if (typeof delta['content'] === 'string') usage.delivered.add(delta['content']);
  if (Array.isArray(delta['tool_calls'])) {
    for (const call of delta['tool_calls']) {
      const args = record(record(call)?.['function'])?.['arguments'];
      if (typeof args === 'string') usage.delivered.add(args);
    }
  }
}

/** A transcript's text (whole, or a stream's `transcript.text.delta`) and the seconds of a duration usage. */
function readTranscript(json: Record<string, unknown>, usage: UsageCount): void {
  if (json['type'] === 'transcript.text.delta' && typeof json['delta'] === 'string') usage.delivered.add(json['delta']);
  if (json['type'] === undefined && typeof json['text'] === 'string' && json['choices'] === undefined) usage.delivered.add(json['text']);
  const reported = record(json['usage']);
  if (reported?.['type'] === 'duration' && typeof reported['seconds'] === 'number' && reported['seconds'] >= 0) {
    usage.audioSeconds = reported['seconds'];
  }
}

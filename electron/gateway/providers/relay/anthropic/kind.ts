// The Anthropic upstream kind: /v1/messages and count_tokens under the channel's base, x-api-key credential, usage of message_start, message_delta and whole messages.
import { GatewayError } from '../../../errors.ts';
import { count, editJson, holdsNone, record, renameField, trimBase, type RelayKind } from '../kind.ts';

const PATHS: Partial<Record<string, string>> = {
  messages: '/v1/messages',
  count_tokens: '/v1/messages/count_tokens',
};

export const anthropicKind: RelayKind = {
  url(channel, request) {
    const path = PATHS[request.operation];
    if (!path) throw new GatewayError('not_implemented', `Relay of ${request.operation} to an Anthropic channel is not built yet.`);
    return `${trimBase(channel.baseUrl)}${path}`;
  },
  auth: (key) => ({ 'x-api-key': key }),
  prepare(raw, channel, _request, parsed) {
    const body = editJson(
      raw,
      (json) => {
        if (json['model'] === channel.upstreamModel) return false;
        json['model'] = channel.upstreamModel;
        return true;
      },
      parsed,
    );
    return { body, hideUsage: false };
  },
  read(data, usage) {
    const json = record(data);
    if (!json) return true;
    // A whole message, or a stream's message_start (its message) and message_delta (cumulative output).
    const reported = record(json['usage']) ?? record(record(json['message'])?.['usage']);
    if (reported) {
      usage.inputTokens = inputOf(reported) ?? usage.inputTokens;
      usage.outputTokens = count(reported['output_tokens']) ?? usage.outputTokens;
    }
    const delta = record(json['delta']);
    if (json['type'] === 'content_block_delta' && delta) {
      if (typeof delta['text'] === 'string') usage.delivered.add(delta['text']);
      if (typeof delta['partial_json'] === 'string') usage.delivered.add(delta['partial_json']);
    }
    if (Array.isArray(json['content'])) {
      for (const block of json['content']) {
        const text = record(block)?.['text'];
        if (typeof text === 'string') usage.delivered.add(text);
      }
    }
    return true;
  },
  // A whole message carries `model`; a stream only its message_start's message.
  renameModel(data, name) {
    const json = record(data);
    const whole = renameField(json, 'model', name);
    return renameField(record(json?.['message']), 'model', name) || whole;
  },
  // Usage sits under `usage` (a message's, or a message_start's message's).
  onlyDelivers: (data) => holdsNone(data, USAGE_WORD),
};

/** The word whose absence from an event's text means `read` takes only delivered text from it. */
const USAGE_WORD = ['usage'] as const;

/** Input tokens, cache reads and writes included (they are input the model read). */
function inputOf(usage: Record<string, unknown>): number | undefined {
  const input = count(usage['input_tokens']);
  if (input === undefined) return undefined;
  return input + (count(usage['cache_read_input_tokens']) ?? 0) + (count(usage['cache_creation_input_tokens']) ?? 0);
}

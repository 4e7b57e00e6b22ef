// Reads a Responses API answer as it passes a relay: the id the upstream stored it under, its usage and the text delivered.
import { count, record, type UsageCount } from '../kind.ts';

/**
 * Reads `json` when it is a Response object (`object: "response"`) or one of its stream events (`type: "response.…"`);
 * false for any other answer, left to the chat-shaped reader.
 */
export function readResponsesEvent(json: Record<string, unknown>, usage: UsageCount): boolean {
  const type = typeof json['type'] === 'string' ? json['type'] : '';
  const response = json['object'] === 'response' ? json : type.startsWith('response.') ? record(json['response']) : undefined;
  if (!response && !type.startsWith('response.')) return false;
  if (type === 'response.output_text.delta' && typeof json['delta'] === 'string') usage.delivered.add(json['delta']);
  if (type === 'response.function_call_arguments.delta' && typeof json['delta'] === 'string') usage.delivered.add(json['delta']);
  if (!response) return true;
  if (typeof response['id'] === 'string' && usage.responseId === undefined) usage.responseId = response['id'];
  const finished = json['object'] === 'response' || type === 'response.completed';
  if (finished && Array.isArray(response['output'])) usage.outputItems = response['output'] as Record<string, unknown>[];
  const reported = record(response['usage']);
  if (reported) {
    usage.inputTokens = count(reported['input_tokens']) ?? usage.inputTokens;
    usage.outputTokens = count(reported['output_tokens']) ?? usage.outputTokens;
  }
  return true;
}

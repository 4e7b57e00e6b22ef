// Reads a Responses API Response (a whole answer, or the one a stream completes with) back into neutral pieces: reasoning items, message text, function calls, status, usage.
import { GatewayError } from '../../../errors.ts';
import type { ChatChoice, ChatResult, ChatUsage, FinishReason, Reasoning, ToolCall } from '../../neutral/chat.ts';
import { upstreamError } from '../../neutral/upstream-errors.ts';
import { isObject, type Fields } from '../../fields.ts';
import { packReasoning } from '../reasoning-data.ts';

/** The neutral usage of a Response's `usage` (cached input and reasoning tokens are parts of the totals). */
export function usageOfResponse(usage: unknown): ChatUsage {
  if (!isObject(usage)) return { inputTokens: 0, outputTokens: 0 };
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  const cached = number(isObject(usage['input_tokens_details']) ? usage['input_tokens_details']['cached_tokens'] : 0);
  const reasoning = number(isObject(usage['output_tokens_details']) ? usage['output_tokens_details']['reasoning_tokens'] : 0);
  return {
    inputTokens: number(usage['input_tokens']),
    outputTokens: number(usage['output_tokens']),
    ...(cached > 0 && { cachedInputTokens: cached }),
    ...(reasoning > 0 && { reasoningTokens: reasoning }),
  };
}

/** How a Response ended, in neutral words: incomplete for the token limit is `length`, for the content filter `content_filter`. */
export function finishOfResponse(response: Fields, called: boolean): FinishReason {
  if (response['status'] === 'incomplete') {
    const reason = isObject(response['incomplete_details']) ? response['incomplete_details']['reason'] : undefined;
    return reason === 'content_filter' ? 'content_filter' : 'length';
  }
  return called ? 'tool_calls' : 'stop';
}

/** The error of a failed Response (`status: failed`), with the status its code stands for. */
export function failureOf(response: Fields): GatewayError {
  const error = isObject(response['error']) ? response['error'] : {};
  const code = error['code'];
  const status = code === 'rate_limit_exceeded' ? 429 : code === 'server_error' ? 500 : code === 'invalid_prompt' ? 400 : 502;
  return upstreamError(status, { error });
}

/** A reasoning output item as neutral reasoning: its summary (or reasoning text) and its encrypted content packed with the item id. */
export function reasoningOfItem(item: Fields): Reasoning {
  const texts = (list: unknown) =>
    Array.isArray(list) ? list.map((part) => (isObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('') : '';
  const text = texts(item['summary']) || texts(item['content']);
  const encrypted = item['encrypted_content'];
  return {
    text,
    origin: 'openai',
    ...(typeof encrypted === 'string' && encrypted !== '' && { data: packReasoning(item['id'], encrypted) }),
  };
}

/** The text of a message output item (refusals count as text). */
export function textOfMessage(item: Fields): string {
  if (!Array.isArray(item['content'])) return '';
  return item['content']
    .map((part) => {
      if (!isObject(part)) return '';
      if (part['type'] === 'refusal' && typeof part['refusal'] === 'string') return part['refusal'];
      return typeof part['text'] === 'string' ? part['text'] : '';
    })
    .join('');
}

/** The ChatResult of a whole Response. */
export function responsesResult(answer: unknown): ChatResult {
  if (!isObject(answer) || !Array.isArray(answer['output'])) {
    throw new GatewayError('upstream_failed', 'The Responses upstream answered without output items.');
  }
  if (answer['status'] === 'failed') throw failureOf(answer);
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: Reasoning[] = [];
  for (const item of answer['output'] as unknown[]) {
    if (!isObject(item)) continue;
    if (item['type'] === 'message') text += textOfMessage(item);
    else if (item['type'] === 'reasoning') reasoning.push(reasoningOfItem(item));
    else if (item['type'] === 'function_call') {
      toolCalls.push({
        id: String(item['call_id'] ?? item['id'] ?? ''),
        name: String(item['name'] ?? ''),
        arguments: typeof item['arguments'] === 'string' ? item['arguments'] : '{}',
      });
    }
  }
  const choice: ChatChoice = {
    text,
    toolCalls,
    finishReason: finishOfResponse(answer, toolCalls.length > 0),
    ...(reasoning.length > 0 && { reasoning }),
  };
  return { choices: [choice], usage: usageOfResponse(answer['usage']) };
}

// Reads an OpenAI chat completion object (an upstream's whole answer) back into the neutral chat result.
import { GatewayError } from '../../../errors.ts';
import type { ChatChoice, ChatResult, ToolCall } from '../../neutral/chat.ts';
import { isObject, type Fields } from '../../fields.ts';
import { finishReasonFrom, reasoningTextOf, usageFrom } from '../chat-tables.ts';

/**
 * The neutral result of a `chat.completion`: each choice's text (a refusal's text when there is no content), reasoning
 * (`reasoning_content` or `reasoning`), function tool calls and finish reason, in `index` order, and the usage.
 */
export function chatCompletionResult(answer: unknown): ChatResult {
  if (!isObject(answer) || !Array.isArray(answer['choices'])) {
    throw new GatewayError('upstream_failed', 'The upstream answered with no chat completion choices.');
  }
  const choices = answer['choices']
    .filter(isObject)
    .map((choice, position) => {
      const at = typeof choice['index'] === 'number' ? choice['index'] : position;
      return { at, choice: choiceOf(choice, at) };
    })
    .sort((a, b) => a.at - b.at)
    .map(({ choice }) => choice);
  return { choices, usage: usageFrom(answer['usage']) ?? { inputTokens: 0, outputTokens: 0 } };
}

function choiceOf(choice: Fields, at: number): ChatChoice {
  const message = isObject(choice['message']) ? choice['message'] : {};
  const text = stringOr(message['content']) ?? stringOr(message['refusal']) ?? '';
  const reasoning = reasoningTextOf(message);
  const toolCalls = (Array.isArray(message['tool_calls']) ? message['tool_calls'] : [])
    .filter(isObject)
    .flatMap((call, i) => callOf(call, at, i));
  const stopSequence = stopSequenceOf(choice);
  const finishReason = finishReasonFrom(choice['finish_reason']);
  return {
    text,
    toolCalls,
    finishReason: stopSequence !== undefined && finishReason === 'stop' ? 'stop_sequence' : finishReason,
    ...(stopSequence !== undefined && finishReason === 'stop' && { stopSequence }),
    ...(reasoning !== undefined && { reasoning: [{ text: reasoning }] }),
  };
}

/** A function call of the message (other tool types are never asked for). */
function callOf(call: Fields, choice: number, index: number): ToolCall[] {
  const fn = isObject(call['function']) ? call['function'] : undefined;
  if (!fn || typeof fn['name'] !== 'string') return [];
  return [{ id: stringOr(call['id']) ?? fallbackCallId(choice, index), name: fn['name'], arguments: stringOr(fn['arguments']) ?? '{}' }];
}

/** The stop string that ended a choice, when the upstream says (vLLM's `stop_reason`; a number there is a token id). */
export function stopSequenceOf(choice: Fields): string | undefined {
  return stringOr(choice['stop_reason']);
}

/** An id for a tool call whose upstream gave none, stable within the answer. */
export function fallbackCallId(choice: number, call: number): string {
  return `call_${choice}_${call}`;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// Reads an Anthropic Message (a whole answer) back into a neutral ChatResult: text, tool calls, thinking with signatures, stop reason, usage.
import { GatewayError } from '../../../errors.ts';
import type { ChatChoice, ChatResult, ChatUsage, FinishReason, Reasoning, ToolCall } from '../../neutral/chat.ts';
import { isObject, type Fields } from '../../fields.ts';
import { STOP_REASONS } from '../inbound/message.ts';

/** The neutral finish reason of each Anthropic stop reason (`pause_turn`, a paused server tool loop, ends the answer too). */
export function finishOfStop(stop: unknown): FinishReason {
  if (stop === 'pause_turn') return 'stop';
  const found = (Object.keys(STOP_REASONS) as FinishReason[]).find((reason) => STOP_REASONS[reason] === stop);
  return found ?? 'stop';
}

/** Input tokens (cache reads and writes included, as they are input the model read) and output tokens of an Anthropic usage. */
export function usageOf(usage: unknown, previous: ChatUsage = { inputTokens: 0, outputTokens: 0 }): ChatUsage {
  if (!isObject(usage)) return previous;
  const number = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : undefined);
  const input = number('input_tokens');
  const cacheRead = number('cache_read_input_tokens') ?? 0;
  const cacheWrite = number('cache_creation_input_tokens') ?? 0;
  const output = number('output_tokens');
  const cached = input !== undefined ? cacheRead : (previous.cachedInputTokens ?? 0);
  return {
    inputTokens: input === undefined ? previous.inputTokens : input + cacheRead + cacheWrite,
    outputTokens: output ?? previous.outputTokens,
    ...(cached > 0 && { cachedInputTokens: cached }),
  };
}

/** The ChatResult of a whole Message. */
export function anthropicResult(answer: unknown): ChatResult {
  if (!isObject(answer) || !Array.isArray(answer['content'])) {
    throw new GatewayError('upstream_failed', 'The Anthropic upstream answered without message content.');
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: Reasoning[] = [];
  for (const block of answer['content'] as unknown[]) {
    if (!isObject(block)) continue;
    switch (block['type']) {
      case 'text':
        text += stringOf(block, 'text');
        break;
      case 'tool_use':
        toolCalls.push({ id: stringOf(block, 'id'), name: stringOf(block, 'name'), arguments: JSON.stringify(block['input'] ?? {}) });
        break;
      case 'thinking':
        reasoning.push({ text: stringOf(block, 'thinking'), signature: stringOf(block, 'signature'), origin: 'anthropic' });
        break;
      case 'redacted_thinking':
        reasoning.push({ text: '', data: stringOf(block, 'data'), origin: 'anthropic' });
        break;
    }
  }
  const finishReason = finishOfStop(answer['stop_reason']);
  const stopSequence = typeof answer['stop_sequence'] === 'string' ? answer['stop_sequence'] : undefined;
  const choice: ChatChoice = {
    text,
    toolCalls,
    finishReason,
    ...(finishReason === 'stop_sequence' && stopSequence !== undefined && { stopSequence }),
    ...(reasoning.length > 0 && { reasoning }),
  };
  return { choices: [choice], usage: usageOf(answer['usage']) };
}

function stringOf(block: Fields, key: string): string {
  const value = block[key];
  return typeof value === 'string' ? value : '';
}

// Renders a neutral ChatResult as an Anthropic Message: text and tool_use content blocks, stop reason and usage.
import { parseToolArguments } from '../../turns.ts';
import type { ChatChoice, ChatResult, ChatUsage, FinishReason, Reasoning } from '../../neutral/chat.ts';
import { carryOpaque, carryToolId } from '../../neutral/carry.ts';

/** A content block of an assistant message. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** Why the model stopped, in Anthropic's words. */
export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** Token usage as the Messages API reports it (no prompt caching in simulate mode). */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The non-streamed answer of `POST /v1/messages`. */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicBlock[];
  stop_reason: AnthropicStopReason;
  stop_sequence: string | null;
  usage: AnthropicUsage;
}

/** Each neutral finish reason in Anthropic's words. */
export const STOP_REASONS: Record<FinishReason, AnthropicStopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  stop_sequence: 'stop_sequence',
  content_filter: 'refusal',
};

/** The Message for the first choice of `result` (the Messages API has no `n`). */
export function toAnthropicMessage(result: ChatResult, model: string, id: string): AnthropicMessage {
  const choice: ChatChoice = result.choices[0] ?? { text: '', toolCalls: [], finishReason: 'stop' };
  const content: AnthropicBlock[] = (choice.reasoning ?? []).map(thinkingBlock);
  if (choice.text !== '' || choice.toolCalls.length === 0) content.push({ type: 'text', text: choice.text });
  for (const call of choice.toolCalls) {
    const id = toolUseId(carryToolId(call.id, call.thoughtSignature));
    content.push({ type: 'tool_use', id, name: call.name, input: parseToolArguments(call.arguments) });
  }
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: STOP_REASONS[choice.finishReason],
    stop_sequence: choice.finishReason === 'stop_sequence' ? (choice.stopSequence ?? null) : null,
    usage: anthropicUsage(result.usage),
  };
}

/** Usage in Anthropic's words: cache reads are reported apart from the other input tokens. */
export function anthropicUsage(usage: ChatUsage): AnthropicUsage {
  const cached = usage.cachedInputTokens ?? 0;
  return {
    input_tokens: usage.inputTokens - cached,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

/**
 * A reasoning part as a thinking block, or Anthropic's own opaque reasoning as a redacted one. Another provider's signature or
 * opaque data (Gemini, Responses encrypted content) rides in the thinking block's signature, marked with its origin, beside its text.
 */
export function thinkingBlock(reasoning: Reasoning): AnthropicBlock {
  if (reasoning.data !== undefined && isAnthropic(reasoning.origin)) return { type: 'redacted_thinking', data: reasoning.data };
  const opaque = reasoning.signature ?? reasoning.data;
  const signature = opaque === undefined ? '' : carryOpaque(opaque, reasoning.origin, 'anthropic');
  return { type: 'thinking', thinking: reasoning.text, signature };
}

/** Reasoning of no stated origin is taken as the client's own. */
export function isAnthropic(origin: string | undefined): boolean {
  return origin === undefined || origin === 'anthropic';
}

/** Anthropic tool-use ids start with `toolu_`; the engine's own prefix is swapped for it. */
export function toolUseId(id: string): string {
  return id.startsWith('toolu_') ? id : `toolu_${id.replace(/^[a-z]+_/, '')}`;
}

// Builds Responses API objects: output items (message, function_call) from a ChatResult, and the Response that carries them.
import type { ChatResult, FinishReason, Reasoning } from '../../neutral/chat.ts';
import { carryOpaque, carryToolId } from '../../neutral/carry.ts';
import { unpackReasoning } from '../reasoning-data.ts';
import type { Fields } from '../../fields.ts';
import type { ResponseItem } from './items.ts';
import type { ResponsesCall } from './request.ts';

/** Identity of one response. */
export interface ResponseMeta {
  id: string;
  /** Unix seconds. */
  createdAt: number;
}

/** The generated part of a response. */
export interface ResponseOutcome {
  output: ResponseItem[];
  status: 'completed' | 'incomplete';
  /** Why an incomplete response stopped. */
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  usage: ChatResult['usage'];
}

/** The status (and, incomplete, its reason) of a response that finished for `reason`. */
export function statusOf(reason: FinishReason): Pick<ResponseOutcome, 'status' | 'incompleteReason'> {
  if (reason === 'length') return { status: 'incomplete', incompleteReason: 'max_output_tokens' };
  if (reason === 'content_filter') return { status: 'incomplete', incompleteReason: 'content_filter' };
  return { status: 'completed' };
}

/**
 * A reasoning output item: the summary text, and as `encrypted_content` this API's own encrypted reasoning (its item id kept)
 * or another provider's signature, carried so it comes back on the next turn.
 */
export function reasoningItem(reasoning: Reasoning, newId: (prefix: string) => string): ResponseItem {
  const own = reasoning.origin === 'openai' && reasoning.data !== undefined ? unpackReasoning(reasoning.data) : undefined;
  const opaque = own
    ? own.encrypted
    : reasoning.signature !== undefined
      ? carryOpaque(reasoning.signature, reasoning.origin, 'openai')
      : undefined;
  return {
    id: own?.id ?? newId('rs'),
    type: 'reasoning',
    summary: reasoning.text === '' ? [] : [{ type: 'summary_text', text: reasoning.text }],
    ...(opaque !== undefined && { encrypted_content: opaque }),
  };
}

/** Makes the output items of `result` (first choice); `newId(prefix)` names each item. */
export function toOutcome(result: ChatResult, newId: (prefix: string) => string): ResponseOutcome {
  const choice = result.choices[0] ?? { text: '', toolCalls: [], finishReason: 'stop' as const };
  const ending = statusOf(choice.finishReason);
  const output: ResponseItem[] = (choice.reasoning ?? []).map((part) => reasoningItem(part, newId));
  if (choice.text !== '' || choice.toolCalls.length === 0) {
    output.push({
      id: newId('msg'),
      type: 'message',
      status: ending.status,
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: choice.text }],
      role: 'assistant',
    });
  }
  for (const call of choice.toolCalls) {
    output.push({
      id: newId('fc'),
      type: 'function_call',
      status: 'completed',
      arguments: call.arguments,
      call_id: carryToolId(call.id, call.thoughtSignature),
      name: call.name,
    });
  }
  return { output, ...ending, usage: result.usage };
}

/** The Response object: `outcome` absent means the response is still in progress (stream start). */
export function responseObject(call: ResponsesCall, meta: ResponseMeta, outcome?: ResponseOutcome): Fields {
  const status = outcome?.status ?? 'in_progress';
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    background: call.background,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: outcome?.incompleteReason ?? 'max_output_tokens' } : null,
    instructions: call.instructions,
    max_output_tokens: call.maxOutputTokens,
    max_tool_calls: null,
    model: call.model,
    output: outcome?.output ?? [],
    parallel_tool_calls: call.parallelToolCalls ?? true,
    previous_response_id: call.previousResponseId,
    ...(call.conversationId && { conversation: { id: call.conversationId } }),
    reasoning: { effort: call.reasoningEffort, summary: call.reasoningSummary ? 'auto' : null },
    service_tier: 'default',
    store: call.store,
    temperature: call.temperature ?? 1,
    text: { format: call.formatEcho, verbosity: 'medium' },
    tool_choice: call.toolChoiceEcho,
    tools: call.tools,
    top_logprobs: 0,
    top_p: call.topP ?? 1,
    truncation: 'disabled',
    usage: outcome ? usageOf(outcome.usage) : null,
    user: null,
    metadata: call.metadata,
  };
}

/** `usage` as a Response reports it. */
export function usageOf(usage: ChatResult['usage']): Fields {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

// Builds OpenAI chat completion objects and their streamed `chat.completion.chunk` events from a neutral chat result.
import type { ChatChoice, ChatResult, FinishReason } from '../../providers/simulate/text/types.ts';
import type { NamedEvent } from '../named-event.ts';

/** What every object of one completion shares. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

/** Reported as `system_fingerprint` so clients can tell simulated answers apart. */
export const SYSTEM_FINGERPRINT = 'fp_gatehouse_sim';

export function finishReasonOf(reason: FinishReason): 'stop' | 'length' | 'tool_calls' {
  return reason === 'stop_sequence' ? 'stop' : reason;
}

export function usageOf(result: ChatResult) {
  const { inputTokens, outputTokens } = result.usage;
  return { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
}

export function toChatCompletion(result: ChatResult, meta: CompletionMeta) {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: result.choices.map((choice, index) => ({
      index,
      message: {
        role: 'assistant',
        content: choice.toolCalls.length > 0 ? null : choice.text,
        refusal: null,
        ...(choice.toolCalls.length > 0 && {
          tool_calls: choice.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
        }),
      },
      logprobs: null,
      finish_reason: finishReasonOf(choice.finishReason),
    })),
    usage: usageOf(result),
  };
}

/**
 * The chunks of a streamed completion, choice after choice: the role first, then content pieces or
 * indexed tool-call fragments, then a chunk with `finish_reason`; with `includeUsage`, every chunk has
 * `usage: null` and a last chunk has empty `choices` and the usage.
 */
export function chatCompletionChunks(
  result: ChatResult,
  meta: CompletionMeta,
  includeUsage: boolean,
  split: (text: string) => string[],
): NamedEvent[] {
  const header = { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, system_fingerprint: SYSTEM_FINGERPRINT };
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({
    data: { ...header, choices: [{ index, delta, logprobs: null, finish_reason: finish }], ...(includeUsage && { usage: null }) },
  });
  const events: NamedEvent[] = [];
  result.choices.forEach((choice: ChatChoice, index) => {
    events.push(chunk(index, { role: 'assistant', content: choice.toolCalls.length > 0 ? null : '', refusal: null }));
    for (const piece of choice.toolCalls.length > 0 ? [] : split(choice.text)) events.push(chunk(index, { content: piece }));
    choice.toolCalls.forEach((call, callIndex) => {
      events.push(chunk(index, { tool_calls: [{ index: callIndex, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const fragment of split(call.arguments)) {
        events.push(chunk(index, { tool_calls: [{ index: callIndex, function: { arguments: fragment } }] }));
      }
    });
    events.push(chunk(index, {}, finishReasonOf(choice.finishReason)));
  });
  if (includeUsage) {
    events.push({ data: { ...header, choices: [], usage: usageOf(result) } });
  }
  return events;
}

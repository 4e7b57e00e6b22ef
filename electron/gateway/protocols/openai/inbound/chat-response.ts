// Builds OpenAI chat completion objects and their streamed `chat.completion.chunk` events from a neutral chat result.
import type { ChatChoice, ChatResult, FinishReason, ToolCall } from '../../neutral/chat.ts';
import type { NamedEvent } from '../../named-event.ts';

/** What every object of one completion shares. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

/** How the answer is written: tool calls as `tool_calls`, or as the deprecated `function_call` when the call used `functions`. */
export interface ChatAnswerOptions {
  legacyFunctions?: boolean;
}

/** Reported as `system_fingerprint` so clients can tell simulated answers apart. */
export const SYSTEM_FINGERPRINT = 'fp_gatehouse_sim';

export function finishReasonOf(reason: FinishReason): 'stop' | 'length' | 'tool_calls' {
  return reason === 'stop_sequence' ? 'stop' : reason;
}

/** `usage` as the API reports it, with the detail counters (all zero in the simulator). */
export function usageOf(result: ChatResult) {
  const { inputTokens, outputTokens } = result.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

const header = (meta: CompletionMeta, object: string) => ({
  id: meta.id,
  object,
  created: meta.created,
  model: meta.model,
  service_tier: 'default',
  system_fingerprint: SYSTEM_FINGERPRINT,
});

function finishOf(choice: ChatChoice, options: ChatAnswerOptions): string {
  const reason = finishReasonOf(choice.finishReason);
  return reason === 'tool_calls' && options.legacyFunctions ? 'function_call' : reason;
}

/** The `message` calls: `tool_calls`, or the first call as `function_call` in legacy mode. */
function callsOf(calls: ToolCall[], options: ChatAnswerOptions) {
  if (calls.length === 0) return {};
  if (options.legacyFunctions) return { function_call: { name: calls[0]!.name, arguments: calls[0]!.arguments } };
  return { tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) };
}

export function toChatCompletion(result: ChatResult, meta: CompletionMeta, options: ChatAnswerOptions = {}) {
  return {
    ...header(meta, 'chat.completion'),
    choices: result.choices.map((choice, index) => ({
      index,
      message: {
        role: 'assistant',
        content: choice.toolCalls.length > 0 ? null : choice.text,
        refusal: null,
        annotations: [],
        ...callsOf(choice.toolCalls, options),
      },
      logprobs: null,
      finish_reason: finishOf(choice, options),
    })),
    usage: usageOf(result),
  };
}

/**
 * The chunks of a streamed completion, choice after choice: the role first, then content pieces or
 * indexed tool-call fragments (legacy: `function_call` fragments), then a chunk with `finish_reason`; with
 * `includeUsage`, every chunk has `usage: null` and a last chunk has empty `choices` and the usage.
 */
export function chatCompletionChunks(
  result: ChatResult,
  meta: CompletionMeta,
  includeUsage: boolean,
  split: (text: string) => string[],
  options: ChatAnswerOptions = {},
): NamedEvent[] {
  const base = header(meta, 'chat.completion.chunk');
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({
    data: { ...base, choices: [{ index, delta, logprobs: null, finish_reason: finish }], ...(includeUsage && { usage: null }) },
  });
  const events: NamedEvent[] = [];
  result.choices.forEach((choice: ChatChoice, index) => {
    events.push(chunk(index, { role: 'assistant', content: choice.toolCalls.length > 0 ? null : '', refusal: null }));
    for (const piece of choice.toolCalls.length > 0 ? [] : split(choice.text)) events.push(chunk(index, { content: piece }));
    const calls = options.legacyFunctions ? choice.toolCalls.slice(0, 1) : choice.toolCalls;
    calls.forEach((call, callIndex) => {
      const fragments = split(call.arguments);
      if (options.legacyFunctions) {
        events.push(chunk(index, { function_call: { name: call.name, arguments: '' } }));
        for (const fragment of fragments) events.push(chunk(index, { function_call: { arguments: fragment } }));
        return;
      }
      events.push(
        chunk(index, { tool_calls: [{ index: callIndex, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
      );
      for (const fragment of fragments)
        events.push(chunk(index, { tool_calls: [{ index: callIndex, function: { arguments: fragment } }] }));
    });
    events.push(chunk(index, {}, finishOf(choice, options)));
  });
  if (includeUsage) events.push({ data: { ...base, choices: [], usage: usageOf(result) } });
  return events;
}

// The legacy OpenAI completions API: parses `POST /v1/completions` bodies and builds `text_completion` objects and chunks.
import type { ChatRequest, ChatResult } from '../../neutral/chat.ts';
import { invalid } from '../../../errors.ts';
import { objectBody, optionalBoolean, optionalNumber, requiredString } from '../../fields.ts';
import type { NamedEvent } from '../../named-event.ts';
import { stopOf, streamFlags } from './chat-request.ts';
import { finishReasonOf, SYSTEM_FINGERPRINT, type CompletionMeta } from './chat-response.ts';

/** The real API's default output limit of a legacy completion when `max_tokens` is absent. */
export const DEFAULT_COMPLETION_MAX_TOKENS = 16;

/** A validated legacy completion call: one neutral request per prompt. */
export interface CompletionCall {
  model: string;
  prompts: string[];
  /** The neutral request of each prompt, in prompt order. */
  requests: ChatRequest[];
  /** `echo`: the prompt is prepended to each choice's text. */
  echo: boolean;
  stream: boolean;
  includeUsage: boolean;
}

/** One prompt's answer, as the engine gave it. */
export interface PromptAnswer {
  prompt: string;
  result: ChatResult;
}

export function parseCompletionBody(body: unknown): CompletionCall {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const prompts = promptsOf(fields['prompt']);
  const maxTokens = optionalNumber(fields, 'max_tokens', { integer: true, min: 0 }) ?? DEFAULT_COMPLETION_MAX_TOKENS;
  const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: 128 });
  const seed = optionalNumber(fields, 'seed', { integer: true });
  const temperature = optionalNumber(fields, 'temperature', { min: 0, max: 2 });
  const stop = stopOf(fields['stop']);
  return {
    model,
    prompts,
    requests: prompts.map((prompt) => ({
      model,
      turns: [{ role: 'user', text: prompt }],
      maxTokens,
      ...(stop && { stop }),
      ...(seed !== undefined && { seed }),
      ...(n !== undefined && { n }),
      ...(temperature !== undefined && { temperature }),
    })),
    echo: optionalBoolean(fields, 'echo') ?? false,
    ...streamFlags(fields),
  };
}

/** `prompt`: a string or a non-empty array of strings (token-id prompts are not supported by the simulator). */
function promptsOf(value: unknown): string[] {
  if (value === undefined || value === null) return ['<|endoftext|>'];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value as string[];
  throw invalid("Invalid value for 'prompt': expected a string or a non-empty array of strings.", 'prompt');
}

/** Choices of all prompts in the API's order: prompt after prompt, `n` choices each, indexed from 0. */
function choicesOf(call: CompletionCall, answers: PromptAnswer[]) {
  return answers.flatMap(({ prompt, result }) =>
    result.choices.map((choice) => ({ text: (call.echo ? prompt : '') + choice.text, finish: finishReasonOf(choice.finishReason) })),
  );
}

/** Usage summed over every prompt. */
export function completionUsage(answers: PromptAnswer[]) {
  const prompt = answers.reduce((sum, { result }) => sum + result.usage.inputTokens, 0);
  const completion = answers.reduce((sum, { result }) => sum + result.usage.outputTokens, 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const envelope = (meta: CompletionMeta) => ({
  id: meta.id,
  object: 'text_completion',
  created: meta.created,
  model: meta.model,
  system_fingerprint: SYSTEM_FINGERPRINT,
});

/** The non-streamed `text_completion` object. */
export function toTextCompletion(call: CompletionCall, answers: PromptAnswer[], meta: CompletionMeta) {
  return {
    ...envelope(meta),
    choices: choicesOf(call, answers).map((choice, index) => ({ text: choice.text, index, logprobs: null, finish_reason: choice.finish })),
    usage: completionUsage(answers),
  };
}

/**
 * The streamed chunks: each choice's text in pieces (`finish_reason: null`), then a chunk with empty text and its
 * finish reason; with `includeUsage`, a last chunk with empty `choices` and the usage. The route appends `[DONE]`.
 */
export function textCompletionChunks(
  call: CompletionCall,
  answers: PromptAnswer[],
  meta: CompletionMeta,
  split: (text: string) => string[],
): NamedEvent[] {
  const chunk = (index: number, text: string, finish: string | null) => ({
    data: { ...envelope(meta), choices: [{ text, index, logprobs: null, finish_reason: finish }] },
  });
  const events: NamedEvent[] = [];
  choicesOf(call, answers).forEach((choice, index) => {
    for (const piece of split(choice.text)) if (piece !== '') events.push(chunk(index, piece, null));
    events.push(chunk(index, '', choice.finish));
  });
  if (call.includeUsage) events.push({ data: { ...envelope(meta), choices: [], usage: completionUsage(answers) } });
  return events;
}

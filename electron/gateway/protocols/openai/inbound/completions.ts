// The legacy OpenAI completions API: parses `POST /v1/completions` bodies and renders `text_completion` objects and chunks.
import type { ChatRequest, ChatResult } from '../../neutral/chat.ts';
import { invalid } from '../../../errors.ts';
import { objectBody, optionalBoolean, optionalNumber, requiredString } from '../../fields.ts';
import type { ChatDelta, TextDelta } from '../../neutral/deltas.ts';
import { DONE, EventRun, type SseEvent } from '../../named-event.ts';
import { keptFrames, type KeptSpans } from '../../neutral/kept-stream.ts';
import { stepAsync, stepAtHand, type AtHand, type Hold, type Steps } from '../../at-hand.ts';
import { quotedTexts } from '../../quoted-texts.ts';
import { stopOf, streamFlags } from './chat-request.ts';
import { finishReasonOf } from '../chat-tables.ts';
import { openAiKeptCodec, SYSTEM_FINGERPRINT, type CompletionMeta } from './chat-response.ts';

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

/** The choices a call asks for per prompt (`n`). */
export function choicesPerPrompt(call: CompletionCall): number {
  return call.requests[0]?.n ?? 1;
}

/** The prompt that choice `index` answers: choices come prompt after prompt, `n` each. */
function promptOf(call: CompletionCall, index: number): string {
  return call.prompts[Math.floor(index / choicesPerPrompt(call))] ?? '';
}

/** Usage summed over every prompt (the joined result's usage). */
export function completionUsage(usage: ChatResult['usage']) {
  const { inputTokens: prompt, outputTokens: completion } = usage;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const envelope = (meta: CompletionMeta) => ({
  id: meta.id,
  object: 'text_completion',
  created: meta.created,
  model: meta.model,
  system_fingerprint: SYSTEM_FINGERPRINT,
});

/** The non-streamed `text_completion` object of the answers to every prompt, joined in prompt order. */
export function toTextCompletion(call: CompletionCall, result: ChatResult, meta: CompletionMeta) {
  return {
    ...envelope(meta),
    choices: result.choices.map((choice, index) => ({
      text: (call.echo ? promptOf(call, index) : '') + choice.text,
      index,
      logprobs: null,
      finish_reason: finishReasonOf(choice.finishReason),
    })),
    usage: completionUsage(result.usage),
  };
}

/**
 * The streamed chunks as the deltas arrive: each choice's text in pieces (`finish_reason: null`; with `echo` the
 * prompt comes first), then a chunk with empty text and its finish reason; with `includeUsage`, a last chunk with
 * empty `choices` and the usage. `[DONE]` ends the stream.
 */
export function textCompletionChunks(
  deltas: AsyncIterable<ChatDelta>,
  call: CompletionCall,
  meta: CompletionMeta,
): AsyncGenerator<SseEvent> {
  return stepAsync(deltas, chunkSteps(call, meta));
}

/** The chunks of `textCompletionChunks` from deltas all at hand, pulled synchronously (a choice's text pieces as one EventRun). */
export function textCompletionChunksAtHand(
  deltas: AtHand<ChatDelta>,
  call: CompletionCall,
  meta: CompletionMeta,
): Iterable<SseEvent | Hold> {
  return stepAtHand(deltas, chunkSteps(call, meta));
}

/**
 * The chunks of a kept answer's stream (`spans` of its deltas, see ChatStream.keptAtHand): the same bytes as
 * `textCompletionChunksAtHand` writes, rendered once per kept answer and variant, only the identity written per call;
 * undefined when not written so (see keptFrames), and for `echo`, whose prompt the kept deltas do not carry.
 */
export function textCompletionChunksKept(
  spans: KeptSpans,
  call: CompletionCall,
  meta: CompletionMeta,
): Iterable<SseEvent | Hold> | undefined {
  if (call.echo) return undefined;
  return keptFrames(spans, call.includeUsage ? KEPT_USAGE : KEPT_PLAIN, meta);
}

/** How a kept stream of each variant (usage chunk or not) is rendered: every chunk's JSON opens with its identity, as `envelope` is written. */
const keptCodec = (includeUsage: boolean) =>
  openAiKeptCodec(`openai-completions-stream${includeUsage ? '+usage' : ''}`, 'text_completion', (deltas, meta) =>
    textCompletionChunksAtHand(deltas, { ...BLANK_CALL, includeUsage }, meta),
  );
/** What the stages read of a call without `echo`: only whether the usage chunk is asked for. */
const BLANK_CALL: CompletionCall = { model: '', prompts: [], requests: [], echo: false, stream: true, includeUsage: false };
const KEPT_PLAIN = keptCodec(false);
const KEPT_USAGE = keptCodec(true);

function chunkSteps(call: CompletionCall, meta: CompletionMeta): Steps<ChatDelta, SseEvent> {
  const chunk = (index: number, text: string, finish: string | null) => ({
    data: { ...envelope(meta), choices: [{ text, index, logprobs: null, finish_reason: finish }] },
  });
  const echoed = new Set<number>();
  const echo = (index: number) => {
    if (!call.echo || echoed.has(index)) return '';
    echoed.add(index);
    return promptOf(call, index);
  };
  const step = (delta: ChatDelta, out: SseEvent[]) => {
    if (delta.type === 'text') {
      const text = echo(delta.choice) + delta.text;
      if (text !== '') out.push(chunk(delta.choice, text, null));
    } else if (delta.type === 'finish') {
      const prompt = echo(delta.choice);
      if (prompt !== '') out.push(chunk(delta.choice, prompt, null));
      out.push(chunk(delta.choice, '', finishReasonOf(delta.reason)));
    } else if (delta.type === 'usage' && call.includeUsage) {
      out.push({ data: { ...envelope(meta), choices: [], usage: completionUsage(delta) } });
    }
  };
  const end = (out: SseEvent[]) => {
    out.push(DONE);
  };
  // At hand, a choice's text pieces (its prompt echoed already) are written together: their frames made in one pass around each quoted piece.
  let head: string | undefined;
  const gather = {
    joins: (delta: ChatDelta, run: readonly TextDelta[]) =>
      delta.type === 'text' &&
      delta.text !== '' &&
      (!call.echo || echoed.has(delta.choice)) &&
      (run.length === 0 || run[0]!.choice === delta.choice),
    made: (run: readonly TextDelta[]): SseEvent => {
      const index = run[0]!.choice;
      head ??= `${JSON.stringify(envelope(meta)).slice(0, -1)},"choices":[{"text":`;
      const tail = `,"index":${index},"logprobs":null,"finish_reason":null}]}`;
      return new EventRun({ head, quoted: quotedTexts(run), tail }, () => run.map((delta) => chunk(index, delta.text, null)));
    },
  };
  return { step, end, gather };
}

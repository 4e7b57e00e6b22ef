// What OpenAI chat completions and the neutral model call by other names, both ways: finish reasons, usage, reasoning text and content parts.
import { invalid } from '../../errors.ts';
import type { ChatUsage, FinishReason, Reasoning, UserPart } from '../neutral/chat.ts';
import { mediaOfUrl, urlOfMedia } from '../neutral/media-url.ts';
import { asObject, isObject, requiredString, type Fields } from '../fields.ts';

/** An OpenAI `finish_reason` (the deprecated `function_call` is written by the client side only). */
export type OpenaiFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Neutral → OpenAI: a stop sequence ends with `stop`, as on the real API. */
export function finishReasonOf(reason: FinishReason): OpenaiFinishReason {
  return reason === 'stop_sequence' ? 'stop' : reason;
}

/** OpenAI → neutral: `function_call` is a tool call; an unknown or missing reason is a plain `stop`. */
export function finishReasonFrom(reason: unknown): FinishReason {
  switch (reason) {
    case 'length':
    case 'content_filter':
    case 'tool_calls':
      return reason;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

/** Neutral → OpenAI `usage`, with the detail counters (cached input and reasoning output; the rest always zero). */
export function usageOf(usage: ChatUsage) {
  const { inputTokens, outputTokens } = usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * OpenAI `usage` → neutral, or undefined when `value` is no usage object. Cached input comes from
 * `prompt_tokens_details.cached_tokens` (DeepSeek: `prompt_cache_hit_tokens`), reasoning from
 * `completion_tokens_details.reasoning_tokens`; zero details are left out.
 */
export function usageFrom(value: unknown): ChatUsage | undefined {
  if (!isObject(value)) return undefined;
  const count = (fields: unknown, key: string): number | undefined => {
    const number = isObject(fields) ? fields[key] : undefined;
    return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
  };
  const cached = count(value['prompt_tokens_details'], 'cached_tokens') ?? count(value, 'prompt_cache_hit_tokens');
  const reasoning = count(value['completion_tokens_details'], 'reasoning_tokens');
  return {
    inputTokens: count(value, 'prompt_tokens') ?? 0,
    outputTokens: count(value, 'completion_tokens') ?? 0,
    ...(cached !== undefined && cached > 0 && { cachedInputTokens: cached }),
    ...(reasoning !== undefined && reasoning > 0 && { reasoningTokens: reasoning }),
  };
}

/**
 * The reasoning text of an assistant message or stream delta: `reasoning_content` (DeepSeek, vLLM and most
 * OpenAI-compatible servers) or else `reasoning` (OpenRouter, newer vLLM); undefined when neither is a non-empty string.
 */
export function reasoningTextOf(fields: Fields): string | undefined {
  for (const key of ['reasoning_content', 'reasoning']) {
    const text = fields[key];
    if (typeof text === 'string' && text !== '') return text;
  }
  return undefined;
}

/** A user content part → neutral: `text`, or an `image_url` (a URL, or a base64 `data:` URL); other kinds (audio, files) give undefined. */
export function userPartOf(part: unknown, path: string): UserPart | undefined {
  const fields = asObject(part, path);
  switch (fields['type']) {
    case 'text':
      return { type: 'text', text: requiredString(fields, 'text', `${path}.text`) };
    case 'image_url': {
      const image = asObject(fields['image_url'], `${path}.image_url`);
      const url = requiredString(image, 'url', `${path}.image_url.url`);
      const media = mediaOfUrl(url);
      if (!media) throw invalid(`Invalid '${path}.image_url.url': a data: URL must be base64 image data.`, `${path}.image_url.url`);
      return media;
    }
    default:
      return undefined;
  }
}

/** A neutral user part → an OpenAI content part. */
export function contentPartOf(part: UserPart) {
  return part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: urlOfMedia(part) } };
}

/** Between two reasoning parts in one `reasoning_content` (OpenAI chat has one reasoning text per message). */
export const REASONING_PART_SEPARATOR = '\n\n';

/** The reasoning text of neutral parts as one `reasoning_content`; undefined when none has text (signatures and opaque data do not cross). */
export function reasoningContentOf(reasoning: readonly Reasoning[] | undefined): string | undefined {
  const texts = (reasoning ?? []).map((part) => part.text).filter((text) => text !== '');
  return texts.length > 0 ? texts.join(REASONING_PART_SEPARATOR) : undefined;
}

// Token usage of a realtime response: text by the shared estimate, audio by its length (user audio 10 tokens/s, spoken answers 20 tokens/s).
import { countTokens, estimateInputTokens } from '../protocols/neutral/tokens.ts';
import type { ChatRequest } from '../protocols/neutral/chat.ts';
import { SESSION_RATE } from './audio-format.ts';
import type { Entry } from './conversation.ts';

/** One token per 100 ms of user audio, one per 50 ms of spoken answer (the rates OpenAI documents). */
export const INPUT_AUDIO_TOKENS_PER_SECOND = 10;
export const OUTPUT_AUDIO_TOKENS_PER_SECOND = 20;

/** Text and audio tokens. */
export interface TokenSplit {
  text: number;
  audio: number;
}

export function audioTokens(samples: number, perSecond: number): number {
  return Math.ceil((samples / SESSION_RATE) * perSecond);
}

/** Input of a response: the request's text estimate without the words heard in user audio, plus that audio's tokens. */
export function inputUsage(request: ChatRequest, context: readonly Entry[]): TokenSplit {
  let heard = 0;
  let audio = 0;
  for (const entry of context) {
    if (entry.spoken === undefined || !entry.audio) continue;
    heard += countTokens(entry.spoken);
    audio += audioTokens(entry.audio.length, INPUT_AUDIO_TOKENS_PER_SECOND);
  }
  return { text: Math.max(0, estimateInputTokens(request) - heard), audio };
}

/** The `usage` object of `response.done`. */
export function presentUsage(input: TokenSplit, output: TokenSplit) {
  const inputTokens = input.text + input.audio;
  const outputTokens = output.text + output.audio;
  return {
    total_tokens: inputTokens + outputTokens,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    input_token_details: {
      text_tokens: input.text,
      audio_tokens: input.audio,
      image_tokens: 0,
      cached_tokens: 0,
      cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 },
    },
    output_token_details: { text_tokens: output.text, audio_tokens: output.audio },
  };
}

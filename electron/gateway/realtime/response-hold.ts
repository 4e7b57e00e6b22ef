// What a realtime response holds of its token's quota before it is planned: its input as the session counts it and the most output it may produce.
import { DEFAULT_OUTPUT_BOUND } from '../services/usage-bounds.ts';
import type { Entry } from './conversation.ts';
import { responseRequestOf } from './responder.ts';
import type { SessionConfig } from './session-config.ts';
import { audioTokens, inputUsage, OUTPUT_AUDIO_TOKENS_PER_SECOND } from './usage.ts';
import { SESSION_RATE } from './audio-format.ts';

/**
 * The most tokens a response to `context` under `config` can be charged: its input (the text estimate and the heard audio,
 * as its usage counts them) and its output limit (`max_output_tokens`, else DEFAULT_OUTPUT_BOUND), plus, for a spoken
 * answer, the audio tokens of the longest answer the voice speaks (`maxSpokenSeconds`).
 */
export function responseBound(
  config: SessionConfig,
  context: readonly Entry[],
  maxSpokenSeconds: number | undefined,
): { inputTokens: number; outputTokens: number } {
  const input = inputUsage(responseRequestOf(config, context), context);
  const text = config.maxOutputTokens === 'inf' ? DEFAULT_OUTPUT_BOUND : config.maxOutputTokens;
  const spoken = config.outputModalities[0] === 'audio' && maxSpokenSeconds !== undefined;
  const audio = spoken ? audioTokens(maxSpokenSeconds * SESSION_RATE, OUTPUT_AUDIO_TOKENS_PER_SECOND) : 0;
  return { inputTokens: input.text + input.audio, outputTokens: text + audio };
}

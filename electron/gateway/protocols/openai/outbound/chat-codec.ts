// The OpenAI chat completions outbound codec: neutral chat requests written in its wire format, its answers and stream events read back as neutral ones.
import type { OutboundChatCodec } from '../../neutral/codec.ts';
import { chatChunkDeltas } from './chat-deltas.ts';
import { chatCompletionsBody } from './chat-request.ts';
import { chatCompletionResult } from './chat-result.ts';

/** Translation into OpenAI chat completions (and the servers that speak it: vLLM, DeepSeek, OpenRouter, Ollama…). */
export const openaiChatOutbound: OutboundChatCodec = {
  request: chatCompletionsBody,
  result: chatCompletionResult,
  deltas: chatChunkDeltas,
};

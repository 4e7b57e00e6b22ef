// The chat wire a client's call speaks (the channels' wires are in shared/channels.ts).
import type { CallContext, ChatWire } from '../types.ts';

/** Each chat protocol's wire; the `openai` protocol speaks chat completions only on that endpoint (its other APIs are not chat), `gemini` all but its embeddings. */
const WIRES: Partial<Record<CallContext['protocol'], ChatWire>> = {
  openai: 'openai-chat',
  responses: 'openai-responses',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

/** The chat wire a call speaks, or undefined for calls that are not chat (embeddings, images, audio, completions, realtime…). */
export function wireOfCall(call: CallContext): ChatWire | undefined {
  if (call.protocol === 'openai' && call.endpoint !== '/v1/chat/completions') return undefined;
  // Gemini's embeddings methods are not chat either.
  if (call.protocol === 'gemini' && /:(embedContent|batchEmbedContents)$/.test(call.endpoint)) return undefined;
  return WIRES[call.protocol];
}

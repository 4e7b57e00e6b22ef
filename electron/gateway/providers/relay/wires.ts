// The chat wire a client's call speaks (the channels' wires are in shared/channels.ts).
import type { CallContext, ChatWire } from '../types.ts';

/** The chat wire a call speaks, or undefined for calls that are not chat (embeddings, images, audio, completions, realtime…). */
export function wireOfCall(call: CallContext): ChatWire | undefined {
  switch (call.protocol) {
    case 'openai':
      return call.endpoint === '/v1/chat/completions' ? 'openai-chat' : undefined;
    case 'responses':
      return 'openai-responses';
    case 'anthropic':
      return 'anthropic';
    case 'gemini':
      return 'gemini';
    default:
      return undefined;
  }
}

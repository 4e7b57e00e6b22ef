// The upstream kinds relay speaks, and the one a caller's protocol matches.
import type { ChannelKind, InboundProtocol } from '../types.ts';
import { anthropicKind } from './anthropic/kind.ts';
import { geminiKind } from './gemini/kind.ts';
import type { RelayKind } from './kind.ts';
import { openaiKind } from './openai/kind.ts';

export const RELAY_KINDS: Record<ChannelKind, RelayKind> = {
  openai: openaiKind,
  anthropic: anthropicKind,
  gemini: geminiKind,
};

/** The channel kind that speaks a caller's protocol (OpenAI's other APIs count as OpenAI: their relay is not built yet). */
export function kindOfProtocol(protocol: InboundProtocol): ChannelKind | undefined {
  switch (protocol) {
    case 'openai':
    case 'responses':
    case 'realtime':
    case 'rerank':
      return 'openai';
    case 'anthropic':
      return 'anthropic';
    case 'gemini':
      return 'gemini';
    default:
      return undefined;
  }
}

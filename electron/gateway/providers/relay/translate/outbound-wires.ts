// Each upstream chat wire as translation sends to it: its outbound codec, the relay operation (path) of a call, and the headers it needs.
import { wiresOfChannel } from '../../../../../shared/channels.ts';
import { anthropicOutbound } from '../../../protocols/anthropic/outbound/codec.ts';
import { geminiOutbound } from '../../../protocols/gemini/outbound/codec.ts';
import type { OutboundChatCodec } from '../../../protocols/neutral/codec.ts';
import { openaiChatOutbound } from '../../../protocols/openai/outbound/chat-codec.ts';
import { responsesOutbound } from '../../../protocols/responses/outbound/codec.ts';
import type { ChatWire, PassthroughOperation, RelayChannel } from '../../types.ts';

/** The version sent as `anthropic-version` on translated calls (the caller's own header belongs to another protocol). */
export const ANTHROPIC_VERSION = '2023-06-01';

export interface OutboundWire {
  codec: OutboundChatCodec;
  /** The relay operation of a call (its upstream path), streamed or not. */
  operation(stream: boolean): PassthroughOperation;
  /** Headers the wire needs besides the channel's credential and extra headers. */
  headers: Record<string, string>;
}

export const OUTBOUND_WIRES: Record<ChatWire, OutboundWire> = {
  'openai-chat': { codec: openaiChatOutbound, operation: () => 'chat', headers: {} },
  'openai-responses': { codec: responsesOutbound, operation: () => 'responses', headers: {} },
  anthropic: { codec: anthropicOutbound, operation: () => 'messages', headers: { 'anthropic-version': ANTHROPIC_VERSION } },
  gemini: { codec: geminiOutbound, operation: (stream) => (stream ? 'streamGenerateContent' : 'generateContent'), headers: {} },
};

/** The wire translation uses on `channel`: an `openai` channel that speaks both APIs is sent chat completions. */
export function chatWireOf(channel: RelayChannel): ChatWire {
  return wiresOfChannel(channel.kind, channel.api)[0]!;
}

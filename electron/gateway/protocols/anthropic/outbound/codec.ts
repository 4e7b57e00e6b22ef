// The Anthropic Messages outbound codec: neutral chat requests written as Messages bodies, Messages and their event streams read back as neutral answers and deltas.
import type { OutboundChatCodec } from '../../neutral/codec.ts';
import { anthropicResult } from './answer.ts';
import { anthropicDeltas } from './events.ts';
import { anthropicRequest } from './request.ts';

/** Translation into Anthropic Messages. */
export const anthropicOutbound: OutboundChatCodec = {
  request: anthropicRequest,
  result: anthropicResult,
  deltas: anthropicDeltas,
};

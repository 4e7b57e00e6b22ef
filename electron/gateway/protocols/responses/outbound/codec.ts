// The OpenAI Responses outbound codec: neutral chat requests written in its wire format, its answers and stream events read back as neutral ones.
import type { OutboundChatCodec } from '../../neutral/codec.ts';
import { notBuiltCodec } from '../../neutral/not-built.ts';

/** Not built yet: translation into OpenAI Responses is refused with a 501. */
export const responsesOutbound: OutboundChatCodec = notBuiltCodec('OpenAI Responses');

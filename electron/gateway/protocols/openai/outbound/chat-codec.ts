// The OpenAI chat completions outbound codec: neutral chat requests written in its wire format, its answers and stream events read back as neutral ones.
import type { OutboundChatCodec } from '../../neutral/codec.ts';
import { notBuiltCodec } from '../../neutral/not-built.ts';

/** Not built yet: translation into OpenAI chat completions is refused with a 501. */
export const openaiChatOutbound: OutboundChatCodec = notBuiltCodec('OpenAI chat completions');

// The inbound codec of POST /v1/completions: legacy completion bodies to one neutral request per prompt, answers back joined.
import type { InboundChatCodec, KeptStreamWriter } from '../../neutral/codec.ts';
import type { SseEvent } from '../../named-event.ts';
import type { CompletionMeta } from './chat-response.ts';
import {
  parseCompletionBody,
  textCompletionChunks,
  textCompletionChunksAtHand,
  textCompletionChunksKept,
  toTextCompletion,
  type CompletionCall,
} from './completions.ts';

/** OpenAI legacy completions, client side: the answer rendered is every prompt's, joined in prompt order. */
export const openaiCompletionsCodec = {
  parse: parseCompletionBody,
  render: (result, call, meta) => toTextCompletion(call, result, meta),
  stream: (deltas, call, meta) => textCompletionChunks(deltas, call, meta),
  streamAtHand: (deltas, call, meta) => textCompletionChunksAtHand(deltas, call, meta),
  streamKept: (spans, call, meta) => textCompletionChunksKept(spans, call, meta),
} satisfies Required<InboundChatCodec<unknown, CompletionCall, CompletionMeta, SseEvent>> &
  KeptStreamWriter<CompletionCall, CompletionMeta, SseEvent>;

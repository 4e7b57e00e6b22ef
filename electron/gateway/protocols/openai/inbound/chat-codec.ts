// The inbound codec of POST /v1/chat/completions: OpenAI chat bodies to neutral requests, answers back as completions or chunks.
import type { InboundChatCodec, KeptStreamWriter } from '../../neutral/codec.ts';
import type { SseEvent } from '../../named-event.ts';
import { parseChatBody, type ChatCall } from './chat-request.ts';
import {
  chatCompletionChunks,
  chatCompletionChunksAtHand,
  chatCompletionChunksKept,
  toChatCompletion,
  type CompletionMeta,
} from './chat-response.ts';

/** OpenAI chat completions, client side. */
export const openaiChatCodec = {
  parse: parseChatBody,
  render: (result, call, meta) => toChatCompletion(result, meta, { legacyFunctions: call.legacyFunctions }),
  stream: (deltas, call, meta) => chatCompletionChunks(deltas, meta, call.includeUsage, { legacyFunctions: call.legacyFunctions }),
  streamAtHand: (deltas, call, meta) =>
    chatCompletionChunksAtHand(deltas, meta, call.includeUsage, { legacyFunctions: call.legacyFunctions }),
  streamKept: (spans, call, meta) => chatCompletionChunksKept(spans, meta, call.includeUsage, { legacyFunctions: call.legacyFunctions }),
} satisfies Required<InboundChatCodec<unknown, ChatCall, CompletionMeta, SseEvent>> & KeptStreamWriter<ChatCall, CompletionMeta, SseEvent>;

// The inbound codec of Gemini's generateContent and streamGenerateContent: bodies (with the path's model) to neutral requests, answers back.
import type { ChatRequest } from '../../neutral/chat.ts';
import type { InboundChatCodec, KeptStreamWriter } from '../../neutral/codec.ts';
import type { EventRun, WrittenBytes } from '../../named-event.ts';
import { parseGenerateContent } from './request.ts';
import {
  toGenerateContentChunks,
  toGenerateContentChunksAtHand,
  toGenerateContentResponse,
  toGenerateContentSseKept,
  type GeminiAnswerMeta,
  type GenerateContentResponse,
} from './response.ts';

/**
 * Gemini generateContent, client side; its stream is GenerateContentResponse chunks (as SSE data or one JSON array). A kept
 * answer's stream is written as its SSE frames rendered once (`streamKept`): only for `alt=sse`, the route's choice.
 */
export const geminiCodec = {
  parse: ({ body, model }) => parseGenerateContent(body, model),
  render: (result, _chat, meta) => toGenerateContentResponse(result, meta),
  stream: (deltas, _chat, meta) => toGenerateContentChunks(deltas, meta),
  streamAtHand: (deltas, _chat, meta) => toGenerateContentChunksAtHand(deltas, meta),
  streamKept: (spans, _chat, meta) => toGenerateContentSseKept(spans, meta),
} satisfies Required<
  InboundChatCodec<
    { body: unknown; model: string },
    ChatRequest,
    GeminiAnswerMeta,
    GenerateContentResponse | EventRun<GenerateContentResponse>
  >
> &
  KeptStreamWriter<ChatRequest, GeminiAnswerMeta, GenerateContentResponse | EventRun<GenerateContentResponse> | WrittenBytes>;

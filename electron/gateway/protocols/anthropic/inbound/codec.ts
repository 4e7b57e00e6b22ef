// The inbound codec of POST /v1/messages: Anthropic Messages bodies to neutral requests, answers back as a Message or its events.
import type { InboundChatCodec, KeptStreamWriter } from '../../neutral/codec.ts';
import type { EventRun, NamedEvent, WrittenBytes } from '../../named-event.ts';
import { toAnthropicMessage } from './message.ts';
import { parseMessagesBody, type MessagesCall } from './request.ts';
import { anthropicStreamEvents, anthropicStreamEventsAtHand, anthropicStreamEventsKept, type AnthropicStreamMeta } from './stream.ts';

/** Anthropic Messages, client side. */
export const anthropicCodec = {
  parse: (body) => parseMessagesBody(body),
  render: (result, _call, meta) => toAnthropicMessage(result, meta.model, meta.id),
  stream: (deltas, _call, meta) => anthropicStreamEvents(deltas, meta),
  streamAtHand: (deltas, _call, meta) => anthropicStreamEventsAtHand(deltas, meta),
  streamKept: (spans, _call, meta) => anthropicStreamEventsKept(spans, meta),
} satisfies Required<InboundChatCodec<unknown, MessagesCall, AnthropicStreamMeta, NamedEvent | EventRun>> &
  KeptStreamWriter<MessagesCall, AnthropicStreamMeta, NamedEvent | EventRun | WrittenBytes>;

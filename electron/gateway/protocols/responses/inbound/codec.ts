// The inbound codec of POST /v1/responses: Responses bodies to calls (their conversation resolved by the route), answers back as a Response or its events.
import type { InboundChatCodec } from '../../neutral/codec.ts';
import type { EventRun, NamedEvent } from '../../named-event.ts';
import { parseResponsesBody, type ResponsesCall } from './request.ts';
import { responseObject, toOutcome } from './response.ts';
import { responseStreamEvents, responseStreamEventsAtHand, type ResponseStreamMeta } from './stream.ts';

/** OpenAI Responses, client side. */
export const responsesCodec = {
  parse: parseResponsesBody,
  render: (result, call, meta) => responseObject(call, meta, toOutcome(result, meta.newId)),
  stream: (deltas, call, meta) => responseStreamEvents(deltas, call, meta),
  streamAtHand: (deltas, call, meta) => responseStreamEventsAtHand(deltas, call, meta),
} satisfies Required<InboundChatCodec<unknown, ResponsesCall, ResponseStreamMeta, NamedEvent | EventRun>>;

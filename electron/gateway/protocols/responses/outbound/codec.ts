// The OpenAI Responses outbound codec: neutral chat requests written as Responses calls, Responses and their event streams read back as neutral answers and deltas.
import type { OutboundChatCodec } from '../../neutral/codec.ts';
import { responsesResult } from './answer.ts';
import { responsesDeltas } from './events.ts';
import { responsesRequest } from './request.ts';

/** Translation into the OpenAI Responses API (channels with `--api responses`). */
export const responsesOutbound: OutboundChatCodec = {
  request: responsesRequest,
  result: responsesResult,
  deltas: responsesDeltas,
};

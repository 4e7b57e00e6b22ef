// The Gemini generateContent outbound codec: neutral chat requests written as GenerateContentRequests, answers and streamed chunks read back as neutral answers and deltas.
import type { OutboundChatCodec } from '../../neutral/codec.ts';
import { geminiDeltas, geminiResult } from './answer.ts';
import { geminiRequest } from './request.ts';

/** Translation into Gemini generateContent / streamGenerateContent (the model and the method are in the path). */
export const geminiOutbound: OutboundChatCodec = {
  request: (request) => geminiRequest(request),
  result: geminiResult,
  deltas: geminiDeltas,
};

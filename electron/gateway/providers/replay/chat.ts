// A chat cassette answering through the neutral model: its recorded answer read by the outbound codec of the protocol it was recorded in, so the caller's codec renders it in any protocol (and a neutral route such as `store: true` gets it too).
import type { CassetteProtocol, HttpCassette } from '../../../../shared/cassette.ts';
import { GatewayError } from '../../errors.ts';
import { collectChat } from '../../protocols/neutral/deltas.ts';
import { upstreamError } from '../../protocols/neutral/upstream-errors.ts';
import { sseJson } from '../relay/translate/event-stream.ts';
import { OUTBOUND_WIRES } from '../relay/translate/outbound-wires.ts';
import type { ChatProvider, ChatWire } from '../types.ts';
import { playBody, type Playback } from './playback.ts';

/** The chat wire each recording protocol's answers are written in. */
const WIRE_OF: Partial<Record<CassetteProtocol, ChatWire>> = {
  openai: 'openai-chat',
  responses: 'openai-responses',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

/** Whether a cassette recorded through `protocol` can be rendered to another protocol's client. */
export function renderable(protocol: CassetteProtocol): boolean {
  return WIRE_OF[protocol] !== undefined;
}

/** The chat capability of `cassette` (`countTokens` is `other`'s: counting is not recorded with the answer). */
export function cassetteChat(cassette: HttpCassette, file: string, playback: Playback, other: ChatProvider): ChatProvider {
  const codec = OUTBOUND_WIRES[WIRE_OF[cassette.recording.protocol]!].codec;
  const failed = () => (cassette.response.status >= 300 ? upstreamError(cassette.response.status, errorBody(cassette)) : undefined);
  const deltas = (signal: AbortSignal) => {
    // Only an event stream reads back into deltas; Gemini's JSON-array stream replays to Gemini clients byte for byte only.
    if (!/event-stream/i.test(cassette.response.headers['content-type'] ?? ''))
      throw new GatewayError(
        'invalid_request',
        `Cassette ${file} holds a stream that is not server-sent events; it replays only to a client of its own protocol.`,
      );
    return codec.deltas(sseJson(playBody(cassette, file, playback, signal)));
  };
  return {
    async complete(_request, call) {
      const error = failed();
      if (error) throw error;
      if (cassette.request.stream) return collectChat(deltas(call.signal));
      const bytes: Uint8Array[] = [];
      for await (const piece of playBody(cassette, file, playback, call.signal)) bytes.push(piece);
      return codec.result(JSON.parse(Buffer.concat(bytes).toString('utf8')));
    },
    async stream(_request, call) {
      const error = failed();
      if (error) throw error;
      // The key holds `stream`, so a streamed call finds only streamed recordings.
      if (!cassette.request.stream) throw new GatewayError('invalid_request', `Cassette ${file} was recorded without a stream.`, 'stream');
      return deltas(call.signal);
    },
    countTokens: (request, call) => other.countTokens(request, call),
  };
}

function errorBody(cassette: HttpCassette): unknown {
  const body = cassette.response.body;
  const text = body && 'text' in body ? body.text : cassette.response.events?.map((event) => event.data).join('');
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

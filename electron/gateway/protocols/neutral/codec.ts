// The two halves of a chat protocol codec: the inbound half speaks to the gateway's clients, the outbound half to an upstream.
import type { ChatRequest, ChatResult } from './chat.ts';
import type { ChatDelta, ChatStream } from './deltas.ts';

/**
 * A client protocol's side of chat (OpenAI chat, completions, Anthropic Messages, Gemini, Responses): it turns
 * the client's request into the call it makes (whose neutral ChatRequest the provider answers), and renders the
 * neutral answer back, whole or as the protocol's stream events while the deltas arrive. `Source` is what a
 * request is parsed from (the body, or the body with its path's model), `Call` the parsed call, `Meta` the
 * identity the gateway gives the answer (id, creation time, model), `Event` one item of the client's stream.
 */
export interface InboundChatCodec<Source, Call, Meta, Event> {
  /** Client request → the call; throws a GatewayError (HTTP 400) for a request the protocol refuses. */
  parse(source: Source): Call;
  /** ChatResult → the client's JSON answer. */
  render(result: ChatResult, call: Call, meta: Meta): unknown;
  /** The answer's deltas → the client's stream events, each yielded as soon as the deltas that make it have arrived. */
  stream(deltas: ChatStream, call: Call, meta: Meta): AsyncIterable<Event>;
}

/**
 * An upstream protocol's side of chat, for relaying: it writes the upstream request from a neutral one and reads
 * the upstream's answer back into the neutral model. The relay issue adds one outbound codec per upstream family,
 * so N client protocols and M upstream families take N + M codecs, not N x M translators. None exists yet.
 */
export interface OutboundChatCodec<UpstreamRequest, UpstreamAnswer, UpstreamEvent> {
  /** ChatRequest → the upstream's request body. */
  request(request: ChatRequest): UpstreamRequest;
  /** The upstream's JSON answer → ChatResult. */
  result(answer: UpstreamAnswer): ChatResult;
  /** The upstream's stream events → neutral deltas, ending with one usage delta. */
  deltas(events: AsyncIterable<UpstreamEvent>): AsyncIterable<ChatDelta>;
}

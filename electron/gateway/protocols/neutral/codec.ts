// The two halves of a chat protocol codec: the inbound half speaks to the gateway's clients, the outbound half to an upstream.
import type { ChatRequest, ChatResult } from './chat.ts';
import type { ChannelCompatName } from '../../../../shared/channels.ts';
import type { ChatDelta, ChatStream } from './deltas.ts';
import type { AtHand, AtHandOrAsync, Hold } from '../at-hand.ts';
import type { KeptSpans } from './kept-stream.ts';

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
  /** The same events from deltas all at hand (see ChatStream.atHand), pulled synchronously; absent: such a stream goes through `stream`. */
  streamAtHand?(deltas: AtHand<ChatDelta>, call: Call, meta: Meta): Iterable<Event | Hold>;
}

/**
 * An upstream protocol's side of chat, for relaying with translation: it writes the upstream request from a neutral
 * one and reads the upstream's answer back into the neutral model, so N client protocols and M upstream wires take
 * N + M codecs, not N x M translators. Pure functions: no I/O, no clock. They live in protocols/<family>/outbound/.
 */
export interface OutboundChatCodec<UpstreamRequest = unknown, UpstreamAnswer = unknown, UpstreamEvent = unknown> {
  /**
   * ChatRequest → the upstream's JSON request body, naming `upstream.model` and asking for a stream when `upstream.stream`
   * (an OpenAI chat stream also asks for `stream_options.include_usage`). Throws a GatewayError (`invalid_request`,
   * naming the field and the upstream protocol) for what the upstream cannot take and the lossy table does not drop.
   */
  request(request: ChatRequest, upstream: { model: string; stream: boolean; compat?: ChannelCompatName }): UpstreamRequest;
  /** The upstream's JSON answer (a 2xx) → ChatResult. */
  result(answer: UpstreamAnswer): ChatResult;
  /**
   * The upstream's stream events (each SSE event's `data` parsed as JSON; `[DONE]` is not passed) → neutral deltas, each
   * yielded as soon as the events that make it arrived, ending with one usage delta. An error event in the stream throws a
   * GatewayError (upstream-errors.ts gives the kind of a status) after the deltas before it.
   */
  deltas(events: AsyncIterable<UpstreamEvent>): AsyncIterable<ChatDelta>;
}

/** A client protocol that writes a kept answer's stream rendered once (neutral/kept-stream.ts), only each call's identity written per call. */
export interface KeptStreamWriter<Call, Meta, Event> {
  /**
   * The events of a kept answer's spans (see ChatStream.keptAtHand), the Holds among them passed on where they stood; or
   * undefined when this stream is not written as its render (its spans not asked for): `streamAtHand` then makes it.
   */
  streamKept(spans: KeptSpans, call: Call, meta: Meta): Iterable<Event | Hold> | undefined;
}

/**
 * The client's stream events of `deltas` by `codec`: pulled synchronously when the whole answer is at hand (the stream
 * offers `atHand` and the codec `streamAtHand`), else made as the deltas arrive. The one place a route's stream chooses.
 * `whole`: the writer sends what is at hand in few writes (no stream fault counts its frames one by one), so a kept
 * answer's stream may go as the bytes the codec rendered once (`streamKept`).
 */
export function streamEvents<Call, Meta, Event>(
  codec: Pick<InboundChatCodec<unknown, Call, Meta, Event>, 'stream' | 'streamAtHand'> & Partial<KeptStreamWriter<Call, Meta, Event>>,
  deltas: ChatStream,
  call: Call,
  meta: Meta,
  whole = false,
): AtHandOrAsync<Event> {
  const kept = whole && deltas.keptAtHand && codec.streamKept?.(deltas.keptAtHand, call, meta);
  if (kept) return kept;
  return deltas.atHand && codec.streamAtHand ? codec.streamAtHand(deltas.atHand(), call, meta) : codec.stream(deltas, call, meta);
}

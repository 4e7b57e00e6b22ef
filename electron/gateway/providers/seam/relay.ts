// The seam's relay capabilities: same-protocol pass-through, realtime session relay, and the channels relay routing reads.
import type { ChannelApiName, ChannelCompatName, ChatWireName } from '../../../../shared/channels.ts';
import type { WebSocket } from 'ws';
import type { CallContext } from '../types.ts';

/** An endpoint a relay forwards as it is when the upstream speaks the caller's protocol (the relay knows each one's upstream path). */
export type PassthroughOperation =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'rerank'
  | 'rerank_v2'
  | 'images_generations'
  | 'speech'
  | 'images_edits'
  | 'transcriptions'
  | 'translations'
  | 'responses'
  | 'responses_get'
  | 'responses_delete'
  | 'responses_input_items'
  | 'responses_cancel'
  | 'responses_compact'
  | 'moderations'
  | 'images_variations'
  | 'messages'
  | 'count_tokens'
  | 'generateContent'
  | 'streamGenerateContent'
  | 'countTokens'
  | 'embedContent'
  | 'batchEmbedContents';

/** What a route asks a pass-through for; the body is `call.rawBody`. */
export interface PassthroughRequest {
  operation: PassthroughOperation;
  /** The model the caller named. */
  model: string;
  /** Whether the caller asked for a stream. */
  stream: boolean;
  /** Gemini: the API version of the caller's path (`v1beta` or `v1`) and whether it asked for SSE (`alt=sse`). */
  apiVersion?: string;
  sse?: boolean;
  /** Responses retrieve, delete, input items and cancel: the upstream's response id (the call has no body). */
  responseId?: string;
  /** Responses retrieve and input items: the caller's query parameters passed on (`include[]`, `stream`, `starting_after`, a list's cursor), as `?…`, or absent. */
  query?: string;
  /** Only this channel is tried, with no failover: the one that stored a response the call refers to. */
  channelId?: string;
  /** Multipart calls: the form streamed upstream instead of `call.rawBody`, made for the model name the channel sends. It can be sent only once, so only the first channel is tried. */
  form?: { contentType: string; body(upstreamModel: string): AsyncIterable<Uint8Array> };
  /**
   * Translated calls: per channel, the operation and JSON body to send instead of `call.rawBody` (written by the outbound codec
   * of the channel's wire for its model name). Answers are not renamed: the translator renders the caller's model itself.
   */
  translated?: (channel: RelayChannel) => {
    operation: PassthroughOperation;
    body: Buffer;
    sse?: boolean;
    headers?: Record<string, string>;
  };
}

/** The text (and tool arguments) an answer delivered, counted as it passed. */
export interface DeliveredText {
  /** Its token estimate (a relayed answer's is counted when first read). */
  readonly tokens: number;
}

/** Usage read from an upstream's own answer as it passed; a figure the answer did not carry (a cut stream) is absent. */
export interface RelayedUsage {
  inputTokens?: number;
  outputTokens?: number;
  /**
   * The text delivered, whose tokens are the output when the answer carried no usage. An object, not a count: a relayed
   * answer's is counted only when read, and a copy or a spread of the usage keeps it, as it is a plain property.
   */
  delivered: DeliveredText;
  /** Bytes of the answer passed to the caller (they bound the output an upstream may claim). */
  answerBytes?: number;
  /** Responses API: the id of the response the upstream created (JSON `id`, or the stream's `response.created`). */
  responseId?: string;
  /** Responses API: the output items of the finished response (a JSON Response, or the stream's `response.completed`); absent when the answer was cut or too long to read. */
  outputItems?: Record<string, unknown>[];
  /** Transcriptions: the seconds of audio the upstream says it heard (`usage.type: "duration"`). */
  audioSeconds?: number;
}

/** An upstream's answer, forwarded: status, the headers the client may see, and the body as it arrives. */
export interface UpstreamReply {
  status: number;
  headers: Readonly<Record<string, string>>;
  /**
   * The body chunk by chunk; pulling stops the upstream when the caller stops. Throws a GatewayError when the upstream breaks off.
   * `atOnce`, where offered: the rest of the body in one piece when the upstream already sent all of it (then only `return()`
   * is left to call), else undefined (read on as usual).
   */
  body: AsyncIterable<Uint8Array> & { atOnce?(): Uint8Array | undefined };
  /** Settles once the body ended (finished, cut or broken): the usage seen, or null for an error answer (nothing to bill). Never rejects. */
  usage: Promise<RelayedUsage | null>;
  /** The channel that answered (absent when none did). */
  channelId?: string;
}

/** Forwards a call to an upstream of the caller's own protocol, body untouched but for the model name. */
export interface PassthroughProvider {
  /** Resolves with the first answer worth giving the caller (failover happens before it); throws a GatewayError when no channel answered. */
  forward(request: PassthroughRequest, call: CallContext): Promise<UpstreamReply>;
}

/**
 * A response the caller may not pay for: the `error` event (JSON text) the client gets, and with `close`, the session
 * ends with it (the token may no longer spend at all: every further turn would cost the upstream again); without, only
 * the response is cancelled upstream (too little is left for it beside what other responses hold).
 */
export interface ResponseRefusal {
  event: string;
  close?: { code: number; reason: string };
}

/** What a route asks a realtime relay for. */
export interface RealtimeRelayRequest {
  /** The model the caller named (`?model=`). */
  model: string;
  /** The WebSocket subprotocols the client offered; those carrying a credential are never sent upstream. */
  protocols: readonly string[];
  /**
   * Bills one response: called for each upstream `response.done` (with its usage), and once for a response cut off by a
   * close (what it delivered); `responseId`: the response's id, when the upstream named it. Must not throw.
   */
  charge(usage: RelayedUsage, responseId?: string): void;
  /**
   * Asked before a client's `response.create` goes upstream, with the event's `response` object: null when the caller may
   * still spend (what the response may cost is then held until a `response.done` is charged), else the `error` event
   * (JSON text, answering the client event `eventId`) sent back instead (quota used up or too little left, token revoked or expired).
   */
  admit(eventId: string | null, response: Record<string, unknown> | undefined): string | null;
  /**
   * Told as the upstream starts a response (its `response.created`, with its `response` object), the ones it starts on
   * its own (its voice detection answering a turn) included: null when the response may go on (what it may cost held
   * until its `response.done`: an admitted `response.create`'s hold, else one made now), else the refusal: the response
   * is cancelled upstream (or the session closed) and the client gets its `error` event. Absent (a replay, which plays
   * what was recorded): every response goes on.
   */
  started?(responseId: string, response: Record<string, unknown> | undefined): ResponseRefusal | null;
  /** The upstream refused the client event `eventId` (an `error` event naming it): an admitted `response.create`'s hold is let go. */
  rejected?(eventId: string): void;
  /** An unexpected failure in one of the session's listeners (a bug), for the gateway's log; never thrown. */
  report(error: unknown): void;
  /** A recording of the session (`--record`); absent: none. */
  tape?: RealtimeTape;
}

/** Records a relayed realtime session: the channel that opened it, each frame both ways as the client sent or got it, and its end. */
export interface RealtimeTape {
  opened(channel: { name: string; upstreamModel: string }): void;
  frame(from: 'client' | 'upstream', data: Buffer | string, binary: boolean): void;
  /** The side that closed first, with its code and reason. */
  closed(from: 'client' | 'upstream', code: number, reason: string): void;
  /** The session ended: the recording is complete. Called once. */
  ended(): void;
}

/** Relays a whole realtime session: the upstream's WebSocket, frames passed both ways as they are. */
export interface RealtimeRelayProvider {
  /**
   * Opens `request.model`'s session upstream (the next channel while a handshake fails) and from then on passes frames
   * between `client` and it, text and binary as they came, closing each side when the other closes. Frames the client sends
   * meanwhile are held (bounded) and passed on once it opens. Resolves once the upstream session is open; throws a
   * GatewayError when none opened, leaving `client` open for the caller to refuse.
   */
  open(client: WebSocket, request: RealtimeRelayRequest, call: CallContext): Promise<void>;
}

/** The wire protocol an upstream channel speaks. */
export type ChannelKind = 'openai' | 'anthropic' | 'gemini';

/** Which chat API an `openai` channel's upstream speaks: chat completions, or only the Responses API. */
export type ChannelApi = ChannelApiName;

/** A chat wire protocol: what a client speaks, or what an upstream channel speaks (its kind, and for `openai` its API). */
export type ChatWire = ChatWireName;

/** A channel as relay uses it for one model: where to send, as which model, with which credential. */
export interface RelayChannel {
  id: string;
  name: string;
  kind: ChannelKind;
  /** What the provider's official SDK takes as its base URL (e.g. `https://api.openai.com/v1`, `https://api.anthropic.com`). */
  baseUrl: string;
  /** The model name sent upstream (a `local=upstream` entry renames it; otherwise the caller's model). */
  upstreamModel: string;
  priority: number;
  weight: number;
  /** Time allowed until the upstream's response headers. */
  timeoutMs: number;
  /** Longest silence allowed between two chunks of the upstream's body (and between the headers and the first). */
  idleTimeoutMs: number;
  /** Time allowed for the whole call, from sending to the body's last byte. */
  deadlineMs: number;
  /** Extra headers sent upstream on every call. */
  headers: Readonly<Record<string, string>>;
  /** The credential from the secret store; null for a channel that needs none (a local Ollama). */
  key: string | null;
  /** `openai` channels: the chat API the upstream speaks; absent: both (chat completions and Responses). */
  api?: ChannelApi;
  /** `openai` channels: which chat completions fields the server reads (`openai`, or `compatible` for Ollama, llama.cpp, vLLM…). */
  compat?: ChannelCompatName;
}

/**
 * How one attempt on a channel went, for its health and circuit breaker. `model`: the caller's model name. A failure
 * with `modelFailure` (the upstream refused that model: not found, or rate limited) rests that model on the channel
 * instead of counting against the channel; `retryAfterMs` is the upstream's own Retry-After.
 */
export type ChannelOutcome =
  | { ok: true; latencyMs: number; model?: string }
  | { ok: false; latencyMs: number; error: string; model?: string; modelFailure?: { missing: boolean; retryAfterMs?: number } };

/** The configured channels, as relay routing reads them (implemented over SQLite and the secret store; changes apply to the next call). */
export interface ChannelDirectory {
  /** The kinds of the enabled channels that serve `model` (empty: no channel does, the simulator answers or the call is refused). Synchronous: it decides the bundle of a call. */
  kindsServing(model: string): readonly ChannelKind[];
  /** The chat wires the enabled channels serving `model` speak, the wire of the highest-priority channel first (empty: no channel serves it). */
  wiresServing(model: string): readonly ChatWire[];
  /**
   * The enabled channels of `kind` serving `model` that are not cooling down (nor resting that model), in the order to
   * try: priority first, weighted random within one. When every one is cooling down, all of them, as nothing else could answer.
   * The list itself when no channel's key must first be read from the secret store (the usual call: a key read a moment
   * ago is kept), else a promise of it.
   */
  candidates(model: string, kind: ChannelKind): RelayChannel[] | Promise<RelayChannel[]>;
  /** Records an attempt: consecutive failures put a channel in cooldown; a success ends it. */
  record(channelId: string, outcome: ChannelOutcome): void;
  /** Every model a channel serves by name (not `*`), with its channel, for the model catalogue. */
  listedModels(): { model: string; channel: string; kind: ChannelKind }[];
}

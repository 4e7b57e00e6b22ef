// The provider seam: one interface per capability, implemented by providers/simulate and providers/relay, chosen per call.
import type { ChannelApiName, ChatWireName } from '../../../shared/channels.ts';
import type { JournalRelay } from '../../../shared/journal.ts';
import type { AssetType } from '../../../shared/portrait.ts';
import type { ChatRequest, ChatResult, ToolSpec } from '../protocols/neutral/chat.ts';
import type { ChatStream } from '../protocols/neutral/deltas.ts';
import type { WebSocket } from 'ws';
import type { Principal } from '../principal.ts';

/** The client protocol a call arrived in: which codec parsed it and will render the answer. */
export type InboundProtocol = 'openai' | 'responses' | 'anthropic' | 'gemini' | 'realtime' | 'rerank' | 'portrait' | 'tasks3d';

/** What every provider call carries besides its neutral request. */
export interface CallContext {
  /** The caller, once authenticated. */
  readonly principal: Principal;
  readonly protocol: InboundProtocol;
  /** The endpoint as billed and journaled, e.g. `/v1/chat/completions`. */
  readonly endpoint: string;
  /** The request body as received, for an upstream of the caller's own protocol (relay forwards it untouched); absent for multipart and WebSocket calls. */
  readonly rawBody?: Buffer;
  /** The request headers as received (test values such as `x-gatehouse-pace`, pass-through headers such as `anthropic-beta`). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Aborted when the caller goes away (the client disconnects, a realtime response is cancelled): stop work and upstream calls. */
  readonly signal: AbortSignal;
  /** Tells the journal how a relayed call went so far (called after each try on a channel); absent where nothing is journaled. */
  readonly noteRelay?: (relay: JournalRelay) => void;
}

/** Chat models: every text endpoint (chat, completions, messages, generateContent, responses, realtime) ends here. */
export interface ChatProvider {
  /** The whole answer, for calls that do not stream. Throws a GatewayError for a request the model refuses. */
  complete(request: ChatRequest, call: CallContext): Promise<ChatResult>;
  /**
   * The answer as it is produced. Resolves once the answer has started: a refusal is thrown here, while the
   * route can still answer with an HTTP error. The stream then yields deltas as they come (paced, for the
   * simulator's `x-gatehouse-pace`) and ends with a usage delta; it stops early when `call.signal` aborts.
   */
  stream(request: ChatRequest, call: CallContext): Promise<ChatStream>;
  /** Input tokens of a request, as the model counts them (Anthropic count_tokens, Gemini countTokens). */
  countTokens(request: ChatRequest, call: CallContext): Promise<number>;
}

/** One embeddings input: a text, or token ids (OpenAI accepts both). */
export type EmbeddingInput = string | readonly number[];

export interface EmbeddingsProvider {
  /** One vector per input, in order. `dimensions` absent: the model's own size. */
  embed(
    request: { model: string; inputs: readonly EmbeddingInput[]; dimensions?: number },
    call: CallContext,
  ): Promise<{ vectors: Float32Array[]; usage: { inputTokens: number } }>;
}

export interface RerankProvider {
  /** Every document's relevance to the query, from 0 to 1, best first (ties by index); `topN` cuts the list. */
  rerank(
    request: { model: string; query: string; documents: readonly string[]; topN?: number },
    call: CallContext,
  ): Promise<{ results: { index: number; relevance: number }[]; usage: { inputTokens: number } }>;
}

/** A PNG image made by a provider. */
export interface MadeImage {
  png: Uint8Array;
  width: number;
  height: number;
}

/** An uploaded image (or mask) of an edit, as its form field and bytes. */
export interface ImageUpload {
  field: string;
  bytes: Uint8Array;
}

export interface ImagesProvider {
  generate(request: { model: string; prompt: string; width: number; height: number; n: number }, call: CallContext): Promise<MadeImage[]>;
  /** `size` absent: the first image's size. */
  edit(
    request: {
      model: string;
      prompt: string;
      images: readonly ImageUpload[];
      mask?: ImageUpload;
      n: number;
      size?: { width: number; height: number };
    },
    call: CallContext,
  ): Promise<MadeImage[]>;
}

/** The categories of a moderation verdict, as the OpenAI moderation models name them. */
export const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** One part of what is classified together: a text, or an image by URL (or data URL). */
export type ModerationPart = { type: 'text'; text: string } | { type: 'image'; url: string };

/** The verdict on one input: per category whether it is flagged, its score (0 to 1), and the kinds of input the score applies to. */
export interface ModerationVerdict {
  flagged: Record<ModerationCategory, boolean>;
  scores: Record<ModerationCategory, number>;
  appliedTo: Record<ModerationCategory, ('text' | 'image')[]>;
}

export interface ModerationProvider {
  /** One verdict per input, in order; each input is classified as a whole (all its parts together). */
  classify(request: { model: string; inputs: readonly (readonly ModerationPart[])[] }, call: CallContext): Promise<ModerationVerdict[]>;
}

/** Audio formats a speech provider produces. */
export type SpeechFormat = 'mp3' | 'wav' | 'pcm';

export interface SpeechProvider {
  /** The spoken `input`, encoded as `format`. */
  speak(
    request: { model: string; input: string; voice: string; speed: number; format: SpeechFormat },
    call: CallContext,
  ): Promise<Uint8Array>;
}

/** A transcript with its timing; segments and words are optional (a provider that has none lets the gateway time them evenly). */
export interface Transcript {
  text: string;
  /** Seconds of audio heard. */
  duration: number;
  language?: string;
  segments?: { start: number; end: number; text: string }[];
  words?: { word: string; start: number; end: number }[];
}

export interface TranscriptionProvider {
  /** What is said in an uploaded audio file; `translate` answers in English. */
  transcribe(
    request: { model: string; task: 'transcribe' | 'translate'; bytes: Uint8Array; fileName: string; language?: string; prompt?: string },
    call: CallContext,
  ): Promise<Transcript>;
}

/** The state of a 3D generation upstream; a finished one may say when it finished (ms; absent: when it was seen). */
export type Mesh3dState =
  | { state: 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS'; progress: number }
  | { state: 'SUCCESS'; file: Uint8Array; outputTokens: number; finishedAt?: number }
  | { state: 'FAILURE'; reason: string; finishedAt?: number };

/** What a 3D task asked for, as the gateway stored it. */
export interface Mesh3dTask {
  upstreamId: string;
  model: string;
  prompt: string;
  imageUrl: string | null;
  format: 'glb' | 'obj' | 'stl';
  submittedAt: number;
  /** The time the upstream gave the task when it was submitted. */
  durationMs: number;
}

export interface Mesh3dProvider {
  /** Starts a generation; returns the upstream's id for it and the input tokens it counts. */
  submit(
    request: Omit<Mesh3dTask, 'upstreamId' | 'submittedAt' | 'durationMs'>,
    call: CallContext,
  ): Promise<{ upstreamId: string; inputTokens: number; durationMs: number }>;
  /** Where a task stands; a finished task's file comes once, with SUCCESS. Throws UpstreamError when the upstream cannot tell. */
  check(task: Mesh3dTask): Promise<Mesh3dState>;
}

/** What a realtime session's model does besides chatting: hear the user's audio and speak its answer. */
export interface RealtimeProvider {
  /** The text said in a user's audio turn (24 kHz PCM16, silence around it as voice detection leaves it). */
  hear(samples: Int16Array, call: CallContext): Promise<string>;
  /** The model's voice saying `text` at `speed`, as 24 kHz PCM16. */
  speak(text: string, speed: number, call: CallContext): Promise<Int16Array>;
  /** The longest start of `text` (whole token pieces) the voice speaks at `speed` within one response's length limit. */
  speakable(text: string, speed: number): string;
  /**
   * Refuses, with a GatewayError, tools declared ahead of any response (realtime `session.update`, `response.tools`)
   * that the model could never call within its limits, so no later response fails on them. `path` names where the
   * client declared them (`session.tools`), for the message.
   */
  checkTools(tools: readonly ToolSpec[], path: string, call: CallContext): Promise<void>;
}

/** What the upstream says of a submitted asset. */
export type ReviewVerdict = { status: 'Processing' } | { status: 'Active'; resolvedUrl: string } | { status: 'Failed'; reason: string };

/** A local portrait group as a remote reviewer creates it. */
export interface ReviewGroup {
  name: string;
  description: string;
  groupType: string;
}

/** Registers portrait assets upstream and reports their review (runs in requests and in the background scan). */
export interface Reviewer {
  /** Remote reviewers keep assets in their own groups: creates one and returns its upstream id (absent: the reviewer needs none). Throws UpstreamError. */
  createGroup?(group: ReviewGroup): Promise<string>;
  /** Submits a URL for review and returns the upstream's id for it (`groupUpstreamId`: from `createGroup`, for reviewers that have it). Throws UpstreamError. */
  submit(input: { url: string; assetType: AssetType; name?: string; groupUpstreamId?: string }): Promise<{ upstreamId: string }>;
  /** Asks the upstream for the current verdict. Throws UpstreamError (a refresh error, the status kept). */
  check(upstreamId: string): Promise<ReviewVerdict>;
}

/** Which reviewer an asset is registered with: a channel (by id, and the label the console shows), or the simulator (`channelId` null). */
export interface ReviewerRef {
  channelId: string | null;
  label: string;
}

/** Chooses the portrait library's reviewer: new assets go to the current one; an asset keeps its own until it is terminal. */
export interface ReviewerSelector {
  /** The reviewer for new assets: the highest-priority enabled `platform` or `volcengine` channel, else the simulator. */
  current(): ReviewerRef;
  /** The reviewer of a service channel (the simulator's is the call's bundle's). Throws UpstreamError when that channel is gone or its key is missing. */
  of(channelId: string): Promise<Reviewer>;
}

/** The 3D provider of a model served by a `platform` channel, with that channel's id (stored on the task). */
export interface Mesh3dRoute {
  channelId: string;
  mesh3d: Mesh3dProvider;
}

/** Chooses `platform` channels for 3D tasks: a model one serves is created there; a task is checked on the channel that created it. */
export interface Mesh3dChannels {
  /** The enabled platform channel of highest priority serving `model`, or undefined (the task goes to the call's bundle). */
  forModel(model: string): Promise<Mesh3dRoute | undefined>;
  /** The provider of the channel a task was created on. Throws UpstreamError when the channel is gone or its key is missing. */
  ofChannel(channelId: string, model: string): Promise<Mesh3dProvider>;
}

/** A model the gateway serves, as the catalogue describes it (each protocol renders its own shape). */
export interface ModelInfo {
  id: string;
  displayName: string;
  /** What the model is for, shown as its description. */
  capability: string;
  /** Gemini's names of the methods the model serves. */
  geminiMethods: string[];
  /** Unix seconds. */
  created: number;
}

export interface ModelCatalogue {
  /** Every model callers may name; `call` is absent when the console's Models page asks. */
  list(call?: CallContext): Promise<ModelInfo[]>;
  /** One model; a provider that serves any name describes unknown names too, others return undefined. */
  describe(id: string, call: CallContext): Promise<ModelInfo | undefined>;
}

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
  | 'messages'
  | 'count_tokens'
  | 'generateContent'
  | 'streamGenerateContent'
  | 'countTokens';

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
  /** Responses retrieve and delete: the upstream's response id (the call has no body). */
  responseId?: string;
  /** Responses retrieve: the caller's query parameters passed on (`include[]`, `stream`, `starting_after`), as `?…`, or absent. */
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

/** Usage read from an upstream's own answer as it passed; a figure the answer did not carry (a cut stream) is absent. */
export interface RelayedUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** The text (and tool arguments) delivered, for an output estimate when the answer carried no usage. */
  deliveredText: string;
  /** Responses API: the id of the response the upstream created (JSON `id`, or the stream's `response.created`). */
  responseId?: string;
  /** Transcriptions: the seconds of audio the upstream says it heard (`usage.type: "duration"`). */
  audioSeconds?: number;
}

/** An upstream's answer, forwarded: status, the headers the client may see, and the body as it arrives. */
export interface UpstreamReply {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body chunk by chunk; pulling stops the upstream when the caller stops. Throws a GatewayError when the upstream breaks off. */
  body: AsyncIterable<Uint8Array>;
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

/** What a route asks a realtime relay for. */
export interface RealtimeRelayRequest {
  /** The model the caller named (`?model=`). */
  model: string;
  /** The WebSocket subprotocols the client offered; those carrying a credential are never sent upstream. */
  protocols: readonly string[];
  /** Bills one response: called for each upstream `response.done` (with its usage), and once for a response cut off by a close (what it delivered). Must not throw. */
  charge(usage: RelayedUsage): void;
  /**
   * Asked before a client's `response.create` goes upstream: null when the caller may still spend, else the `error` event
   * (JSON text, answering the client event `eventId`) sent back instead (quota used up, token revoked or expired).
   */
  admit(eventId: string | null): string | null;
  /** An unexpected failure in one of the session's listeners (a bug), for the gateway's log; never thrown. */
  report(error: unknown): void;
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

/** Every capability of one provider mode. */
export interface ProviderBundle {
  /** Which face answers: the offline emulator, or a real upstream. */
  readonly mode: 'simulate' | 'relay';
  readonly chat: ChatProvider;
  readonly embeddings: EmbeddingsProvider;
  readonly rerank: RerankProvider;
  readonly moderation: ModerationProvider;
  readonly images: ImagesProvider;
  readonly speech: SpeechProvider;
  readonly transcription: TranscriptionProvider;
  readonly mesh3d: Mesh3dProvider;
  readonly realtime: RealtimeProvider;
  readonly reviewer: Reviewer;
  readonly models: ModelCatalogue;
  /** Relay only: forwards the raw call to an upstream of the caller's protocol; routes use it instead of the neutral capabilities when present. */
  readonly passthrough?: PassthroughProvider;
  /** Relay only: realtime sessions go whole to the upstream (or are refused, for a model relay cannot reach this way); absent: the simulator runs them. */
  readonly realtimeRelay?: RealtimeRelayProvider;
}

/** Chooses the provider bundle of each call; background work (the refresh scan, 3D polling) passes no call. */
export interface ProviderSelector {
  for(call?: CallContext, model?: string): ProviderBundle;
}

/** The wire protocol an upstream channel speaks. */
export type ChannelKind = 'openai' | 'anthropic' | 'gemini';

/** A `platform` or `volcengine` channel as its provider uses it: where to send, with which credential and options. */
export interface ServiceChannel {
  id: string;
  name: string;
  kind: 'platform' | 'volcengine';
  baseUrl: string;
  timeoutMs: number;
  headers: Readonly<Record<string, string>>;
  /** `platform`: the bearer token; `volcengine`: `AK:SK`. Null when none is set. */
  key: string | null;
  /** `volcengine`: the region and project name. */
  region: string;
  project: string;
  /** The model name sent upstream for a 3D task (`local=upstream` renames); empty when no model is meant. */
  upstreamModel: string;
}

/** The portrait and 3D service channels, as the reviewer and 3D choice read them (SQLite and the secret store, read per call). */
export interface ServiceChannelDirectory {
  /** The enabled service channels (optionally of one kind) that serve `model` (any, when absent), highest priority first; keys not read. */
  enabledServiceChannels(filter?: {
    kind?: 'platform' | 'volcengine';
    model?: string;
  }): { id: string; name: string; kind: 'platform' | 'volcengine' }[];
  /** A service channel by id, enabled or not, key included; undefined when it no longer exists. Throws UpstreamError when its key is missing. */
  serviceChannel(id: string, model?: string): Promise<ServiceChannel | undefined>;
}
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
  /** Extra headers sent upstream on every call. */
  headers: Readonly<Record<string, string>>;
  /** The credential from the secret store; null for a channel that needs none (a local Ollama). */
  key: string | null;
  /** `openai` channels: the chat API the upstream speaks; absent: both (chat completions and Responses). */
  api?: ChannelApi;
}

/** How one attempt on a channel went, for its health and circuit breaker. */
export type ChannelOutcome = { ok: true; latencyMs: number } | { ok: false; latencyMs: number; error: string };

/** The configured channels, as relay routing reads them (implemented over SQLite and the secret store; changes apply to the next call). */
export interface ChannelDirectory {
  /** The kinds of the enabled channels that serve `model` (empty: no channel does, the simulator answers or the call is refused). Synchronous: it decides the bundle of a call. */
  kindsServing(model: string): ChannelKind[];
  /** The chat wires the enabled channels serving `model` speak, the wire of the highest-priority channel first (empty: no channel serves it). */
  wiresServing(model: string): ChatWire[];
  /** The enabled channels of `kind` serving `model` that are not cooling down, in the order to try: priority first, weighted random within one. */
  candidates(model: string, kind: ChannelKind): Promise<RelayChannel[]>;
  /** Records an attempt: consecutive failures put a channel in cooldown; a success ends it. */
  record(channelId: string, outcome: ChannelOutcome): void;
  /** Every model a channel serves by name (not `*`), with its channel, for the model catalogue. */
  listedModels(): { model: string; channel: string; kind: ChannelKind }[];
}

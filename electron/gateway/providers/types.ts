// The provider seam: one interface per capability, implemented by providers/simulate and providers/relay, chosen per call (this file: the call context, chat, embeddings, rerank, the catalogue and the bundle; the other capabilities are in seam/, re-exported here).
import type { CassetteReplayNote } from '../../../shared/cassette.ts';
import type { JournalRelay } from '../../../shared/journal.ts';
import type { ChatRequest, ChatResult } from '../protocols/neutral/chat.ts';
import type { ChatStream } from '../protocols/neutral/deltas.ts';
import type { Principal } from '../principal.ts';
import type { ImagesProvider, ModerationProvider, RealtimeProvider, SpeechProvider, TranscriptionProvider } from './seam/media.ts';
import type { Mesh3dProvider, Reviewer } from './seam/portrait-3d.ts';
import type { PassthroughProvider, RealtimeRelayProvider } from './seam/relay.ts';
import type { CallDecision } from './seam/once-per-call.ts';

export * from './seam/media.ts';
export type * from './seam/portrait-3d.ts';
export type * from './seam/relay.ts';
export type * from './seam/cassettes.ts';

/** The client protocol a call arrived in: which codec parsed it and will render the answer. */
export type InboundProtocol = 'openai' | 'responses' | 'anthropic' | 'gemini' | 'realtime' | 'rerank' | 'portrait' | 'tasks3d';

/** What every provider call carries besides its neutral request. */
export interface CallContext {
  /** The caller, once authenticated. */
  readonly principal: Principal;
  readonly protocol: InboundProtocol;
  /** The HTTP method and the path as called (no query), where the call is an HTTP request (cassettes match on them). */
  readonly method?: string;
  readonly path?: string;
  /** The endpoint as billed and journaled, e.g. `/v1/chat/completions`. */
  readonly endpoint: string;
  /** The request body as received, for an upstream of the caller's own protocol (relay forwards it untouched); absent for multipart and WebSocket calls. */
  readonly rawBody?: Buffer;
  /** `rawBody` as the gateway's JSON parser read it (never to be changed): a relay that must set a field of it copies this instead of parsing `rawBody` again. */
  readonly body?: unknown;
  /** The request headers as received (test values such as `x-gatehouse-pace`, pass-through headers such as `anthropic-beta`). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Aborted when the caller goes away (the client disconnects, a realtime response is cancelled): stop work and upstream calls. */
  readonly signal: AbortSignal;
  /** Tells the journal how a relayed call went so far (called after each try on a channel); absent where nothing is journaled. */
  readonly noteRelay?: (relay: JournalRelay) => void;
  /** Tells the journal which cassette answered a replayed call (`--replay`); absent where nothing is journaled. */
  readonly noteReplay?: (replay: CassetteReplayNote) => void;
  /** The decisions made once for this call (fixtures', replay's: `seam/once-per-call.ts`); set by them, nobody else. */
  decided?: CallDecision | undefined;
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
  /**
   * Input tokens of a request, as the model counts them (Anthropic count_tokens, Gemini countTokens); an
   * EstimatedCount when nobody could count them for the model (a translated model on an upstream without counting).
   */
  countTokens(request: ChatRequest, call: CallContext): Promise<number | EstimatedCount>;
}

/** A token count the gateway estimated itself (the documented local estimate), where the model's own count was not to be had. */
export interface EstimatedCount {
  estimate: number;
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

/** Every capability of one provider mode. */
export interface ProviderBundle {
  /** Which face answers: the offline emulator, or a real upstream. */
  readonly mode: 'simulate' | 'relay';
  /** Fixtures only: the call is decided by fixtures, answered by the fixture so labelled or refused under strict mode (the portrait and 3D services then ask no service channel). */
  readonly fixture?: { label: string } | { refused: true };
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

// The request journal's contract: what the gateway records of each API call, and how the console lists and filters it.
import type { Page } from './portrait.ts';

/** The API family of a recorded call, as the console filters it. */
export type JournalProtocol = 'openai' | 'anthropic' | 'gemini' | 'portrait' | 'tasks3d';

export const JOURNAL_PROTOCOLS = ['openai', 'anthropic', 'gemini', 'portrait', 'tasks3d'] as const satisfies readonly JournalProtocol[];

/** Who answered a recorded call: the simulator, a relay channel, a fixture, or a recorded cassette (`replay`). */
export type JournalSource = 'simulate' | 'relay' | 'fixture' | 'replay';

/** Outcome filter: `ok` is status < 400, `error` is 400 and above. */
export type JournalOutcome = 'ok' | 'error';

/** One recorded call as listed. Times are epoch milliseconds; durations milliseconds. */
export interface JournalSummary {
  id: number;
  at: number;
  method: string;
  /** Path without the query string (a `key=` query parameter is never recorded). */
  path: string;
  protocol: JournalProtocol;
  /** The `model` of the request body or path, when there is one. */
  model: string | null;
  /** The account of the API token, or null when the call was refused before authentication. */
  account: string | null;
  status: number;
  durationMs: number;
  /** True for a streamed answer (SSE or a JSON array stream). */
  stream: boolean;
  /** The error message the caller got, for status >= 400. */
  error: string | null;
  /** The name of the API token the call carried (its hint when it has no name); null or absent in entries recorded before the journal named tokens. */
  token?: string | null;
  /** What the call was billed; null when it was not (refused, portrait, a 3D task before it finished); absent in older entries. */
  usage?: JournalUsage | null;
  /**
   * For a stream: milliseconds from the request's arrival to its first output (text or tool call) as the gateway
   * produced it, never before the answer's first byte left (else, a relayed stream, to that first byte); null otherwise.
   */
  firstOutputMs?: number | null;
  /** The call's `x-gatehouse-test-id` (or `x-test-id`), its first 256 characters; null when it named none (or an older entry). */
  test_id?: string | null;
  /** The `x-request-id` the answer carried (the caller's, or one the gateway made); null in older entries. */
  request_id?: string | null;
  /** Who answered; null in older entries and for a call refused before any answered. */
  source?: JournalSource | null;
  /** The fixture that answered the call (its name, else `file#index`); null or absent when none did. */
  fixture?: string | null;
  /** The cassette a replay answered the call from (its file, relative to the replay folder); null or absent when none did. */
  cassette?: string | null;
}

/** The usage a call was billed. */
export interface JournalUsage {
  inputTokens: number;
  outputTokens: number;
  /** Amount charged, in currency units. */
  cost: number;
}

/** Timing of a streamed answer. */
export interface StreamTiming {
  /** From the request's arrival to the first byte of the answer. */
  firstByteMs: number;
  /** Writes of the answer (SSE frames, array items). */
  chunks: number;
  /** Offset of each write from the request's arrival, in order (the first 500). */
  chunkOffsetsMs: number[];
  /** True when the stream ended before its natural end (client gone, or a fault). */
  cut: boolean;
}

/** A recorded body: text up to a size limit, or a description of what was not kept. */
export interface JournalBody {
  /** The content type sent or received. */
  contentType: string | null;
  /** Size in bytes of the whole body. */
  bytes: number;
  /** The request body as received (a JSON one indented for reading when that fits whole), the answer as sent; null for binary and multipart bodies. */
  text: string | null;
  /** True when `text` stops short of the whole body. */
  truncated: boolean;
  /**
   * Only in a record on its way to the journal thread: a long answer's UTF-8 bytes as written (`text` then null), kept
   * off the V8 heap; the thread decodes them and cuts the text at JOURNAL_BODY_LIMIT (see server/response-tap.ts). A
   * kept render's answer comes as `kept` instead.
   */
  utf8?: Uint8Array;
  /**
   * Only in a record on its way to the journal thread, instead of `utf8`, when the answer was a kept stream's render
   * written whole: which render, the identity written in, and the render's bytes as laid out for it (`KeptMark`), from
   * which the thread makes the answer's bytes again.
   */
  kept?: KeptMark;
}

/**
 * Which kept render (its id, one per variant of a kept answer, see electron/gateway/protocols/neutral/kept-stream.ts)
 * bytes are, the identity written into them, and the render's layout they were made from: what the journal is told of
 * them instead of the bytes.
 */
export interface KeptMark {
  readonly id: number;
  readonly identity: string;
  readonly layout: KeptLayout;
}

/**
 * A kept render's bytes laid out for identities of `identityBytes` bytes (never changed once made): an answer is these
 * bytes with its identity written at each of `holes`.
 */
export interface KeptLayout {
  readonly bytes: Uint8Array;
  readonly holes: readonly number[];
  readonly identityBytes: number;
}

/** One try of a relayed call on a channel: the upstream's HTTP status, or the error when none answered (never a key). */
export interface JournalRelayAttempt {
  channel: string;
  /** The upstream's status, or null when it did not answer (connection error, timeout). */
  status: number | null;
  /** Why the try failed without an answer; null when the upstream answered. */
  error: string | null;
  /** Milliseconds until the upstream's response headers (or the failure). */
  ms: number;
}

/** How a call was relayed: the channel that answered, the model name it was sent, and every try in order (failover). */
export interface JournalRelay {
  /** The channel whose answer the caller got; null when every channel failed. */
  channel: string | null;
  /** The model name that channel was sent (a `local=upstream` entry renames it); null when every channel failed. */
  upstreamModel: string | null;
  attempts: JournalRelayAttempt[];
}

/** One recorded call with its bodies and timing. Headers are kept from a short safe list; credentials never. */
export interface JournalEntry extends JournalSummary {
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  request: JournalBody;
  responseHeaders: Record<string, string>;
  response: JournalBody;
  timing: StreamTiming | null;
  /** What the owner should know of the call (an upstream's usage out of bounds, charged by estimate instead); absent when nothing. */
  notes?: string[];
  /** Present when the call was relayed to a channel (or every channel failed). */
  relay?: JournalRelay;
}

/** What a recorded call stores as its detail (besides its summary columns and its relay). */
export type JournalDetail = Omit<JournalEntry, keyof JournalSummary | 'relay'>;

/** A call to record (the id comes from the insert). */
export type JournalRecord = Omit<JournalSummary, 'id'> & { detail: JournalDetail; relay?: JournalRelay };

/** Filters of the journal list. */
export interface JournalQuery {
  p?: number;
  page_size?: number;
  outcome?: JournalOutcome;
  protocol?: JournalProtocol;
  /** Exact model name. */
  model?: string;
  /** Exact account name. */
  account?: string;
  /** Part of the path. */
  path?: string;
  /** Text searched (any case) in the request and response bodies kept, among the newest `JOURNAL_SEARCH_SCAN` calls the other filters match. */
  q?: string;
  /** Only calls at or after this time (epoch ms). */
  from?: number;
  /** Only calls at or before this time (epoch ms). */
  to?: number;
  /** Exact test id (`x-gatehouse-test-id`). */
  test_id?: string;
  /** Exact request id (`x-request-id` of the answer). */
  request_id?: string;
}

/** The journal list answer. */
export interface JournalPage extends Page<JournalSummary> {
  /**
   * API calls since the gateway started that named no token of this gateway (none, or an unknown one:
   * what any web page can send with a no-cors fetch), on any API path. They are counted here and never
   * recorded, so they cannot push real entries out of the journal.
   */
  unauthenticated_calls: number;
}

/** Entries the gateway keeps; older ones are dropped. */
export const JOURNAL_LIMIT = 2000;
/** Longest text filter (model, account, path) the journal list applies; longer ones are cut. */
export const JOURNAL_FILTER_TEXT_LIMIT = 200;
/** Most calls a body search reads: the newest ones that match the other filters (each body is at most `JOURNAL_BODY_LIMIT`). */
export const JOURNAL_SEARCH_SCAN = 500;
/** Bytes of a body kept as text. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

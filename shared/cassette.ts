// Cassettes: one recorded exchange per JSON file (HTTP calls, realtime sessions, portrait reviews, 3D tasks): the format, its bounds and the error naming a damaged one.

/** The format a cassette is written in; a reader refuses any other (a newer Gatehouse's cassette is named, never half read). */
export const CASSETTE_FORMAT = 1;

/** What a cassette holds: one HTTP exchange, one realtime session, one portrait asset's review, or one 3D task. */
export const CASSETTE_KINDS = ['http', 'realtime', 'portrait', 'task3d'] as const;
export type CassetteKind = (typeof CASSETTE_KINDS)[number];

/** The client protocol the exchange was recorded through (the gateway's inbound protocols). */
export const CASSETTE_PROTOCOLS = ['openai', 'responses', 'anthropic', 'gemini', 'realtime', 'rerank', 'portrait', 'tasks3d'] as const;
export type CassetteProtocol = (typeof CASSETTE_PROTOCOLS)[number];

/** What a miss (no cassette for the call) does under `--replay`: simulated, relayed (and recorded), or refused naming the closest cassette. */
export const REPLAY_MISS_MODES = ['simulate', 'relay', 'error'] as const;
export type ReplayMiss = (typeof REPLAY_MISS_MODES)[number];

/** Largest body a cassette keeps inline (text); a bigger or binary body is written to a blob beside it as it arrives. */
export const MAX_INLINE_BODY_BYTES = 256 * 1024;

/** Largest blob a cassette may name (the largest answer recorded): a cassette naming a bigger one is refused as damaged. */
export const MAX_BLOB_BYTES = 1024 * 1024 * 1024;

/** How the recording was made. */
export interface CassetteRecording {
  /** RFC 3339, when the exchange ended. */
  recordedAt: string;
  /** `relay`: a real upstream answered; `simulate`: the simulator did (`--record-simulated`). */
  mode: 'relay' | 'simulate';
  /** The channel that answered (its name, never its key); absent for a simulated answer. */
  channel?: string;
  /** The model name sent upstream (a channel may rename it); absent for a simulated answer. */
  upstreamModel?: string;
  /** The client protocol the exchange came in through. */
  protocol: CassetteProtocol;
  /** The Gatehouse version that recorded it, when known. */
  gatehouse?: string;
}

/**
 * A payload kept in a file beside the cassette (a big or binary body, a 3D model file): `file` is a bare name in the
 * cassette's folder (no `/`, no `..`), `bytes` and `sha256` (hex) let a reader refuse a blob that changed or was cut.
 */
export interface CassetteBlob {
  file: string;
  bytes: number;
  sha256: string;
}

/** A body: UTF-8 text inline, small binary inline as base64, or a blob beside the cassette. */
export type CassetteBody = { text: string } | { base64: string } | { blob: CassetteBlob };

/** The request as it was matched: what the caller sent (redactions applied), and its normal form with its key. */
export interface CassetteRequest {
  method: string;
  /** The path without the query (a Gemini `?key=` never reaches a cassette), but for Gemini's `?alt=sse`, kept. */
  path: string;
  /** The model the caller named; null when the call names none. */
  model: string | null;
  /** The JSON body as sent (redacted); absent for a multipart or bodyless call. */
  body?: unknown;
  /**
   * The normal form replay matches on: method, path (chat: the neutral request, the same for every client protocol), model
   * and body with the volatile fields dropped. Kept so a miss can name the first field that differs.
   */
  normal: unknown;
  /** The hex SHA-256 of the normal form's canonical JSON (its first CASSETTE_HASH_CHARS are in the file name). */
  key: string;
  /** Whether the caller asked for a stream (part of the normal form too). */
  stream: boolean;
}

/** One piece of a streamed answer as it was written to the caller, `atMs` after the request arrived. */
export interface CassetteEvent {
  atMs: number;
  /** The piece as UTF-8 text (an SSE frame, a piece of Gemini's JSON array). */
  data: string;
}

/** Usage as the gateway charged it (summed over the call's charges), so a replay bills the same. */
export interface CassetteUsage {
  inputTokens: number;
  outputTokens: number;
  /** What the recording run charged, for information (a replay charges at the replaying gateway's prices). */
  amountMicros?: number;
}

/** An HTTP answer: status, the headers that matter to a client, and the body whole or as timed events. */
export interface CassetteHttpResponse {
  status: number;
  /** Lower-case names; per-request and hop-by-hop headers (date, x-request-id, content-length…) and redacted ones left out. */
  headers: Record<string, string>;
  /** A whole answer (exactly one of `body` and `events` is set). */
  body?: CassetteBody;
  /** A streamed answer: each piece as written, with its offset. */
  events?: CassetteEvent[];
  /** A stream kept as a blob (too big for inline events): each write's size and offset, in order. */
  chunks?: { atMs: number; bytes: number }[];
  /** From the request's arrival to the answer's last byte. */
  durationMs: number;
}

interface CassetteBase {
  format: typeof CASSETTE_FORMAT;
  recording: CassetteRecording;
  request: CassetteRequest;
  /** 1 for the first recording of a request, 2 for the next identical one…: replayed in this order. */
  sequence: number;
}

/** One HTTP exchange: chat in every protocol (streamed or not), embeddings, images, speech, the other relayed endpoints. */
export interface HttpCassette extends CassetteBase {
  kind: 'http';
  response: CassetteHttpResponse;
  usage?: CassetteUsage;
}

/** One frame of a realtime session, `atMs` after the upstream session opened: exactly one of `text`, `textBlob` (a big text frame) and `binary`. */
export interface RealtimeFrame {
  atMs: number;
  /** `client`: as the client sent it; `upstream`: as the client got it (the model renamed back, the channel key hidden). */
  from: 'client' | 'upstream';
  text?: string;
  textBlob?: CassetteBlob;
  binary?: CassetteBody;
}

/** A realtime session (`GET /v1/realtime`, keyed by its model): the frames both ways with their offsets, and who closed it first. */
export interface RealtimeCassette extends CassetteBase {
  kind: 'realtime';
  frames: RealtimeFrame[];
  close?: { atMs: number; from: 'client' | 'upstream'; code: number; reason: string };
  /** The usage of its `response.done` events, summed (for information: a replay bills each response as it passes). */
  usage?: CassetteUsage;
}

/** What a portrait reviewer answered at one check, `atMs` after the registration on the gateway's clock; a check that failed has `refreshError`. */
export interface PortraitObservation {
  atMs: number;
  status: 'Processing' | 'Active' | 'Failed';
  resolvedUrl?: string;
  failureReason?: string;
  /** The check failed (the status was kept): the upstream's error. */
  refreshError?: string;
}

/** A portrait asset's review (keyed by its registration: url, asset_type, name): what the reviewer said over time, to its final verdict. */
export interface PortraitCassette extends CassetteBase {
  kind: 'portrait';
  observations: PortraitObservation[];
}

/** A 3D task's state at one check, `atMs` after its creation on the gateway's clock; `ERROR`: the check failed (`failureReason` says why). */
export interface Task3dObservation {
  atMs: number;
  status: 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE' | 'ERROR';
  progress?: number;
  failureReason?: string;
}

/** A 3D task (keyed by its creation's body): its course to its end, its usage, and its result file saved beside the cassette. */
export interface Task3dCassette extends CassetteBase {
  kind: 'task3d';
  progress: Task3dObservation[];
  files: { name: string; contentType?: string; blob: CassetteBlob }[];
  usage?: CassetteUsage;
}

export type Cassette = HttpCassette | RealtimeCassette | PortraitCassette | Task3dCassette;

/** What the journal is told of a replayed call (`noteReplay`): which cassette answered. */
export interface CassetteReplayNote {
  /** The cassette's file name in its folder. */
  file: string;
  /** Its sequence among identical requests. */
  sequence: number;
  recordedAt: string;
  /** Recorded through another client protocol and rendered through the caller's (chat only). */
  translatedFrom?: CassetteProtocol;
}

/** `--record DIR` and its companions, as the gateway config takes them. */
export interface RecordConfig {
  dir: string;
  /** Also record what the simulator answered (`--record-simulated`); default only relayed exchanges. */
  simulated?: boolean;
  /**
   * Re-record (`--record-replace`): a request's first recording of the run replaces the cassettes the folder held for it;
   * default: it is filed as the next sequence beside them.
   */
  replace?: boolean;
  /** JSON paths (`$.user`, `messages[0].content`) or header names (`x-team`) whose values never reach a cassette. */
  redact?: readonly string[];
}

/** `--replay DIR` and its companions, as the gateway config takes them. */
export interface ReplayConfig {
  dir: string;
  /** Default `simulate`. */
  miss?: ReplayMiss;
  /** JSON paths ignored when matching, on top of the volatile fields. */
  ignore?: readonly string[];
  /** 1: recorded timing (default); 2: twice as fast; 0: as fast as possible. */
  speed?: number;
}

/** A cassette that cannot be read: the file and the field, so the user can find it. */
export class CassetteError extends Error {
  override readonly name = 'CassetteError';
  readonly file: string;
  readonly field: string;
  constructor(file: string, field: string, problem: string) {
    super(`${file}${field ? ` ${field}` : ''}: ${problem}`);
    this.file = file;
    this.field = field;
  }
}

// The seam's cassette capabilities: where recordings of every kind are saved (the store's writing half) and what the tap of an HTTP exchange hands over.
import type {
  ReplayMiss,
  Cassette,
  CassetteBlob,
  CassetteKind,
  CassetteHttpResponse,
  CassetteProtocol,
  CassetteRequest,
  CassetteUsage,
} from '../../../../shared/cassette.ts';

/** A cassette before the store files it: the store sets `format` and `sequence` (and so the file name). */
export type CassetteDraft = Cassette extends infer C ? (C extends Cassette ? Omit<C, 'format' | 'sequence'> : never) : never;

/** Where a saved cassette went. */
export interface SavedCassette {
  /** Its file name in the folder. */
  file: string;
  sequence: number;
}

/**
 * Saves recordings through the cassette store (`--record DIR`): blobs first (each named by its content hash, so the
 * cassette can name it before it is filed), then the cassette, written atomically. Realtime sessions, portrait reviews and
 * 3D tasks save through this too; the store scrubs nothing itself: what reaches it must carry no credential.
 */
export interface CassetteRecorder {
  /** Writes a payload beside the cassettes (streamed: a 100 MB body never sits in memory) and names it. */
  saveBlob(data: Uint8Array | AsyncIterable<Uint8Array>): Promise<CassetteBlob>;
  /** A blob written as the bytes arrive (the HTTP tap spills a big or binary answer to it), scrubbed like every other. */
  openBlob(call?: RecordedCall): { write(bytes: Uint8Array): void; end(): Promise<CassetteBlob> };
  /** Files a cassette: its sequence is the next one for its request key, its name follows `cassetteFileName`. */
  save(draft: CassetteDraft): Promise<SavedCassette>;
  /** The normal form and key of a request as replay would match it (the recording and the replay share one rule). */
  requestOf(call: RecordedCall): CassetteRequest;
  /** Files one HTTP exchange (the HTTP tap calls it once the answer ended); resolves undefined when it is not to be kept. */
  recordHttp(exchange: RecordedExchange): Promise<SavedCassette | undefined>;
  /** JSON paths and header names configured with `--record-redact`: values never written. */
  readonly redact: readonly string[];
  /** Whether simulated answers are recorded too (`--record-simulated`). */
  readonly simulated: boolean;
}

/** What a recording tap knows of a call, before it is normalised. */
export interface RecordedCall {
  protocol: CassetteProtocol;
  method: string;
  /** The path as called, without the query. */
  path: string;
  /** The endpoint as billed and journaled (`CallContext.endpoint`), which tells a chat call. */
  endpoint: string;
  model: string | null;
  /** The JSON body as the gateway parsed it; absent for multipart and bodyless calls. */
  body?: unknown;
  stream: boolean;
}

/** What the HTTP tap hands to the recorder once an answer ended: the call, who answered, the answer as written. */
export interface RecordedExchange {
  call: RecordedCall;
  /** The channel that answered and the model name it was sent; absent when the simulator answered. */
  relay?: { channel: string; upstreamModel?: string };
  response: Omit<CassetteHttpResponse, 'body' | 'events' | 'chunks'>;
  /** The body as written, each write with its offset from the request's arrival (bytes, already scrubbed of the channel key). */
  writes: AsyncIterable<{ atMs: number; bytes: Uint8Array }> | readonly { atMs: number; bytes: Uint8Array }[];
  usage?: CassetteUsage;
  /** A body too big (or binary) to keep inline: the tap wrote it to a blob as it went (`CassetteRecorder.openBlob`), with each write's timing. */
  spilled?: { blob: CassetteBlob; chunks: { atMs: number; bytes: number }[] };
}

/** A cassette found for a call: its file, read (and checked) only when it is played. */
export interface FoundCassette {
  file: string;
  sequence: number;
  /** Reads and checks the file; a damaged one rejects with a CassetteError naming it. */
  load(): Promise<Cassette>;
  /** `load`, blocking (at most MAX_CASSETTE_BYTES): the selector reads an HTTP cassette while it decides, so a damaged one is refused before any byte. */
  loadSync(): Cassette;
}

/**
 * The reading half of the store (`--replay DIR`): finds the cassette of a request key and kind, synchronously (the selector
 * decides a call at once), the next of its sequence on each call; opens blobs as streams.
 */
export interface CassetteShelf {
  /** The normal form and key of a request under the replay's ignore list. */
  requestOf(call: RecordedCall): CassetteRequest;
  /** The next cassette recorded for `key` (sequences in order; the last one answers again once all were played), or undefined. */
  next(key: string, kind: CassetteKind): FoundCassette | undefined;
  /**
   * Every cassette recorded for `key`: the one `next` would give first (and counted as `next` counts it), then the others in
   * sequence order. A realtime session narrows among them by its client frames.
   */
  candidates(key: string, kind: CassetteKind): FoundCassette[];
  /** A blob's bytes, streamed; rejects naming the blob when it is missing, cut or changed. */
  blob(blob: CassetteBlob): AsyncIterable<Uint8Array>;
  /** Starts every sequence from its first recording again (for the testing API's reset). */
  rewind(): void;
}

/** The cassettes of a run, on the gateway context: the recorder under `--record`, the shelf under `--replay` (either, both or none). */
export interface CassetteDeck {
  readonly recorder?: CassetteRecorder;
  readonly shelf?: CassetteShelf;
  /** What a replay miss does (`--replay-miss`, default `simulate`). */
  readonly miss: ReplayMiss;
  /** `--replay-speed`: 1 recorded timing, 0 as fast as possible. */
  readonly speed: number;
}

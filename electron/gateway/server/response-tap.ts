// The answer of a journaled call as it was written: its bytes, its text (kept as written, made once), its headers and each write's time, read through write-tap.ts.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { JOURNAL_BODY_LIMIT, type JournalBody, type KeptMark, type StreamTiming } from '../../../shared/journal.ts';
import { TEXTUAL_CONTENT } from './journal-body.ts';
import { NO_HEADERS, sentHeaders, tapWrites } from './write-tap.ts';

/** Most write times a stream's entry keeps. */
const MAX_OFFSETS = 500;
/** Encoding names Node reads as UTF-8 (a string written so is kept as it is). */
const UTF8_NAME = /^utf-?8$/i;
/**
 * A UTF-8 string chunk of at least this many characters is encoded when written and kept as bytes, and an answer of at
 * least this many bytes goes to the journal thread as bytes, which decodes it: its text stays off the V8 heap while its
 * record waits for its batch (a string would outlive scavenges and be copied and promoted). Shorter ones stay strings.
 */
export const ANSWER_AS_BYTES = 4096;
/** The bytes of an answer that go to the journal: enough for JOURNAL_BODY_LIMIT characters however encoded (at most 3 bytes a UTF-16 unit, and one character cut). */
const ANSWER_BYTES_CUT = 3 * JOURNAL_BODY_LIMIT + 3;

/** No lone surrogate: its UTF-8 bytes decode back to the same string (String.prototype.isWellFormed, ES2024, in Node 20 on). */
const wellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * The bytes `endGivenAway` is writing now, and which kept render they are (null when not told): the tap of the response
 * they are written to takes them as given away. Set only for the length of that one `end` call.
 */
let handed: { bytes: Buffer; kept: KeptMark | null } | undefined;

/**
 * Ends `raw` with `bytes`, noting that they are the whole of their storage and that no other code holds it or reads it
 * after the write (a kept answer's stream, see WrittenBytes): the journal may then move them to its thread once the
 * response finished, instead of copying them; `kept`, when they are a kept render whole, tells the journal which (it then
 * makes the answer again from the render's layout, and the bytes go nowhere: storage/journal-kept-slots.ts).
 */
export function endGivenAway(raw: ServerResponse, bytes: Buffer, kept?: KeptMark): void {
  if (bytes.byteOffset !== 0 || bytes.length !== bytes.buffer.byteLength) {
    raw.end(bytes);
    return;
  }
  handed = { bytes, kept: kept ?? null };
  try {
    raw.end(bytes);
  } finally {
    handed = undefined;
  }
}

/** Where `ownUtf8` encodes a string first: room for JOURNAL_BODY_LIMIT characters, made on first use. */
let scratch: Buffer | undefined;

/**
 * `text` (at most JOURNAL_BODY_LIMIT characters) as UTF-8 in storage of its own, never Node's shared pool, so it can be
 * moved to the journal thread, and of its exact size: encoded into the scratch buffer (at most 3 bytes a UTF-16 unit; a
 * lone surrogate written as U+FFFD, as Buffer.from does), which gives the count, then copied. One allocation, no count
 * pass of its own.
 */
function ownUtf8(text: string): Buffer {
  scratch ??= Buffer.allocUnsafeSlow(3 * JOURNAL_BODY_LIMIT);
  const size = scratch.write(text);
  const own = Buffer.allocUnsafeSlow(size);
  scratch.copy(own, 0, 0, size);
  return own;
}

/**
 * Watches what is written to the raw response: bytes, the first part as written, and when each write happened; its
 * head's headers come from `watchHead`. A chunk is kept as it was written (a string is neither encoded nor copied):
 * its text is made once, when the record asks for it. One object per call, its methods shared.
 */
export class ResponseTap {
  private readonly raw: ServerResponse;
  private readonly startedAt: number;
  private readonly kept: (Buffer | string)[] = [];
  /** The encoding of each kept string that is not UTF-8, by its index in `kept` (almost always empty). */
  private encodings: Map<number, BufferEncoding> | undefined;
  private keptBytes = 0;
  /** The bytes this tap encoded a string chunk into, while they are the only piece kept (see `note`): no other code holds them. */
  private made: Buffer | undefined;
  /** The first chunk kept when its writer gave its storage away (`endGivenAway`): no other code holds it once the response finished. */
  private given: Buffer | undefined;
  /** Which kept render `given` is, when its writer told (see `endGivenAway`). */
  private givenKept: KeptMark | null = null;
  private bytes = 0;
  private readonly offsets: number[] = [];
  private writes = 0;
  private firstByteMs: number | null = null;
  /** Fastify and the stream writers pass their headers to writeHead, where getHeader() does not see them. */
  private headGiven: object = NO_HEADERS;

  constructor(raw: ServerResponse, startedAt: number) {
    this.raw = raw;
    this.startedAt = startedAt;
    tapWrites(raw, (chunk, encoding) => this.note(chunk, encoding));
  }

  /** Told the headers given to writeHead (see `watchHead`): kept as they are, read when the record is made. */
  head(given: object): void {
    this.headGiven = given;
  }

  /** Every header sent, whichever way it was set (see `sentHeaders`), but those `keep` refuses. */
  headers(keep: (name: string) => boolean): Record<string, string> {
    return sentHeaders(this.raw, this.headGiven, keep);
  }

  body(contentType: string | null): JournalBody {
    const { bytes } = this;
    if (!contentType || !TEXTUAL_CONTENT.test(contentType)) return { contentType, bytes, text: null, truncated: false };
    const truncated = bytes > JOURNAL_BODY_LIMIT;
    if (this.keptBytes >= ANSWER_AS_BYTES) {
      // A kept stream's render, written whole: the journal thread makes its bytes again from the render's layout and the
      // identity (storage/journal-kept-slots.ts), so these are not held for the batch nor moved.
      const kept = this.kept.length === 1 && this.given !== undefined ? this.givenKept : null;
      if (kept !== null) return { contentType, bytes, text: null, truncated, kept };
      return { contentType, bytes, text: null, truncated, utf8: this.keptUtf8() };
    }
    const text = this.keptText();
    return { contentType, bytes, text: text.slice(0, JOURNAL_BODY_LIMIT), truncated };
  }

  timing(cut: boolean): StreamTiming {
    return { firstByteMs: this.firstByteMs ?? 0, chunks: this.writes, chunkOffsetsMs: this.offsets, cut };
  }

  private note(chunk: unknown, encoding: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    let piece: Buffer | string;
    let size: number;
    if (typeof chunk === 'string') {
      const named = typeof encoding === 'string' && !UTF8_NAME.test(encoding) ? (encoding as BufferEncoding) : undefined;
      if (
        named === undefined &&
        chunk.length >= ANSWER_AS_BYTES &&
        chunk.length <= JOURNAL_BODY_LIMIT &&
        this.keptBytes <= JOURNAL_BODY_LIMIT
      ) {
        piece = ownUtf8(chunk);
        size = piece.length;
        if (this.kept.length === 0) this.made = piece;
      } else {
        piece = chunk;
        size = named === undefined ? Buffer.byteLength(chunk) : Buffer.byteLength(chunk, named);
        if (named !== undefined && size > 0 && this.keptBytes <= JOURNAL_BODY_LIMIT)
          (this.encodings ??= new Map()).set(this.kept.length, named);
      }
    } else {
      // A Buffer is kept as it is (as before); another Uint8Array is copied, as Buffer.from always did.
      piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size = piece.length;
      if (this.kept.length === 0 && piece === handed?.bytes) {
        this.given = piece;
        this.givenKept = handed.kept;
      }
    }
    if (size === 0) return;
    const offset = Math.round(performance.now() - this.startedAt);
    this.firstByteMs ??= offset;
    this.writes += 1;
    if (this.offsets.length < MAX_OFFSETS) this.offsets.push(offset);
    this.bytes += size;
    if (this.keptBytes <= JOURNAL_BODY_LIMIT) {
      this.kept.push(piece);
      this.keptBytes += size;
    }
  }

  /** The kept chunks decoded as UTF-8 once joined as bytes: strings are joined as they are when that gives the same text. */
  private keptText(): string {
    const { kept, encodings } = this;
    if (kept.length === 1 && typeof kept[0] === 'string' && encodings === undefined && wellFormed(kept[0])) return kept[0];
    if (encodings === undefined && kept.every((piece) => typeof piece === 'string' && wellFormed(piece))) return kept.join('');
    const buffers = this.keptBuffers();
    return (buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers)).toString('utf8');
  }

  /** Each kept chunk as bytes: a string encoded as it was written. */
  private keptBuffers(): Buffer[] {
    const { encodings } = this;
    return this.kept.map((piece, index) => (typeof piece === 'string' ? Buffer.from(piece, encodings?.get(index) ?? 'utf8') : piece));
  }

  /**
   * The kept chunks' bytes (at most ANSWER_BYTES_CUT: what decodes to the journal's text) in storage of their own that no
   * other code holds, so the journal can move them to its thread: the chunk this tap encoded when it is the only one (at
   * most 3 × JOURNAL_BODY_LIMIT bytes), or the one chunk its writer gave away once the response finished (the socket is
   * done with it), else a copy (a Buffer the writer gave may be a view of a larger one, or still being written).
   */
  private keptUtf8(): Buffer {
    const { made, given, kept } = this;
    if (made !== undefined && kept.length === 1) return made;
    if (given !== undefined && kept.length === 1 && given.length <= ANSWER_BYTES_CUT && this.raw.writableFinished) return given;
    const into = Buffer.allocUnsafeSlow(Math.min(this.keptBytes, ANSWER_BYTES_CUT));
    let at = 0;
    for (const piece of this.keptBuffers()) {
      at += piece.copy(into, at, 0, Math.min(piece.length, into.length - at));
      if (at === into.length) break;
    }
    return into;
  }
}

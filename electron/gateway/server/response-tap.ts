// The answer of a journaled call as it was written: its bytes, its text (kept as written, made once), its headers and each write's time, read through write-tap.ts.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { JOURNAL_BODY_LIMIT, type JournalBody, type StreamTiming } from '../../../shared/journal.ts';
import { TEXTUAL_CONTENT } from './journal-body.ts';
import { NO_HEADERS, sentHeaders, tapWrites } from './write-tap.ts';

/** Most write times a stream's entry keeps. */
const MAX_OFFSETS = 500;
/** Encoding names Node reads as UTF-8 (a string written so is kept as it is). */
const UTF8_NAME = /^utf-?8$/i;

/** No lone surrogate: its UTF-8 bytes decode back to the same string (String.prototype.isWellFormed, ES2024, in Node 20 on). */
const wellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

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
    const text = this.keptText();
    return { contentType, bytes, text: text.slice(0, JOURNAL_BODY_LIMIT), truncated: bytes > JOURNAL_BODY_LIMIT };
  }

  timing(cut: boolean): StreamTiming {
    return { firstByteMs: this.firstByteMs ?? 0, chunks: this.writes, chunkOffsetsMs: this.offsets, cut };
  }

  private note(chunk: unknown, encoding: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    let piece: Buffer | string;
    let size: number;
    if (typeof chunk === 'string') {
      piece = chunk;
      const named = typeof encoding === 'string' && !UTF8_NAME.test(encoding) ? (encoding as BufferEncoding) : undefined;
      size = named === undefined ? Buffer.byteLength(chunk) : Buffer.byteLength(chunk, named);
      if (named !== undefined && size > 0 && this.keptBytes <= JOURNAL_BODY_LIMIT)
        (this.encodings ??= new Map()).set(this.kept.length, named);
    } else {
      // A Buffer is kept as it is (as before); another Uint8Array is copied, as Buffer.from always did.
      piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size = piece.length;
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
    const buffers = kept.map((piece, index) => (typeof piece === 'string' ? Buffer.from(piece, encodings?.get(index) ?? 'utf8') : piece));
    return (buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers)).toString('utf8');
  }
}

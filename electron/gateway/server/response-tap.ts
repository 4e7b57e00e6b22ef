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
 * its text is made once, when the record asks for it.
 */
export function tapResponse(raw: ServerResponse, startedAt: number) {
  const kept: (Buffer | string)[] = [];
  /** The encoding of each kept string that is not UTF-8, by its index in `kept` (almost always empty). */
  let encodings: Map<number, BufferEncoding> | undefined;
  let keptBytes = 0;
  let bytes = 0;
  const offsets: number[] = [];
  let writes = 0;
  let firstByteMs: number | null = null;
  const note = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    let piece: Buffer | string;
    let size: number;
    if (typeof chunk === 'string') {
      piece = chunk;
      const named = typeof encoding === 'string' && !UTF8_NAME.test(encoding) ? (encoding as BufferEncoding) : undefined;
      size = named === undefined ? Buffer.byteLength(chunk) : Buffer.byteLength(chunk, named);
      if (named !== undefined && size > 0 && keptBytes <= JOURNAL_BODY_LIMIT) (encodings ??= new Map()).set(kept.length, named);
    } else {
      // A Buffer is kept as it is (as before); another Uint8Array is copied, as Buffer.from always did.
      piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size = piece.length;
    }
    if (size === 0) return;
    const offset = Math.round(performance.now() - startedAt);
    firstByteMs ??= offset;
    writes += 1;
    if (offsets.length < MAX_OFFSETS) offsets.push(offset);
    bytes += size;
    if (keptBytes <= JOURNAL_BODY_LIMIT) {
      kept.push(piece);
      keptBytes += size;
    }
  };
  /** The kept chunks decoded as UTF-8 once joined as bytes: strings are joined as they are when that gives the same text. */
  const keptText = (): string => {
    if (kept.length === 1 && typeof kept[0] === 'string' && encodings === undefined && wellFormed(kept[0])) return kept[0];
    if (encodings === undefined && kept.every((piece) => typeof piece === 'string' && wellFormed(piece))) return kept.join('');
    const buffers = kept.map((piece, index) => (typeof piece === 'string' ? Buffer.from(piece, encodings?.get(index) ?? 'utf8') : piece));
    return (buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers)).toString('utf8');
  };
  // Fastify and the stream writers pass their headers to writeHead, where getHeader() does not see them.
  let headGiven: object = NO_HEADERS;
  tapWrites(raw, note);
  return {
    /** Told the headers given to writeHead (see `watchHead`): kept as they are, read when the record is made. */
    head(given: object): void {
      headGiven = given;
    },
    /** Every header sent, whichever way it was set (see `sentHeaders`), but those `keep` refuses. */
    headers(keep: (name: string) => boolean): Record<string, string> {
      return sentHeaders(raw, headGiven, keep);
    },
    body(contentType: string | null): JournalBody {
      if (!contentType || !TEXTUAL_CONTENT.test(contentType)) return { contentType, bytes, text: null, truncated: false };
      const text = keptText();
      return { contentType, bytes, text: text.slice(0, JOURNAL_BODY_LIMIT), truncated: bytes > JOURNAL_BODY_LIMIT };
    },
    timing(cut: boolean): StreamTiming {
      return { firstByteMs: firstByteMs ?? 0, chunks: writes, chunkOffsetsMs: offsets, cut };
    },
  };
}

/** What `tapResponse` tells of an answer. */
export type ResponseTap = ReturnType<typeof tapResponse>;

// Reads a server-sent event stream arriving in byte chunks into its events, as the WHATWG HTML specification's event stream rules say, in one pass and holding only the event being read.

/** The most bytes one event (every line of it up to its blank line) may take; a longer one ends the stream. */
export const MAX_SSE_EVENT_BYTES = 16 * 1024 * 1024;
/** The most bytes one stream may carry; past it the stream ends. */
export const MAX_SSE_STREAM_BYTES = 256 * 1024 * 1024;

/** The caps a reader enforces (tests pass small ones). */
export interface SseLimits {
  eventBytes: number;
  streamBytes: number;
}

/** One event as it came: its fields as the specification reads them, its other lines, and its bytes as they were. */
export interface SseEvent {
  /** The value of its last `event:` field; '' when it had none (a browser then names it `message`). */
  type: string;
  /** Its `data:` lines joined with line feeds; undefined when it had none (a browser dispatches no event then). */
  data: string | undefined;
  /** The last event id of the stream so far (`id:` fields persist from event to event; one with a NUL is ignored). */
  id: string;
  /** The reconnection time its `retry:` field set (ASCII digits only), if any. */
  retry?: number;
  /**
   * Its lines but its `data:` ones, decoded, without their line ends (`event:`, `id:`, `retry:`, comments, unknown fields,
   * and a bare `data` line without a colon, as a line that does not start with `data:`): what must stay when an event's
   * data is written anew. Most events have none (one shared empty list).
   */
  others: readonly string[];
  /** Its bytes exactly as they came, line ends included: the pieces of all events together are the stream. */
  raw: Uint8Array[];
  /** False for what was left when the stream ended before the event's blank line. */
  complete: boolean;
}

/** Which cap a stream passed. */
export type SseOverflow = 'event' | 'stream';

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = [0xef, 0xbb, 0xbf];
/** The field name `data` (the only field read without decoding its line: most lines are one). */
const DATA = [0x64, 0x61, 0x74, 0x61];
/** Node's Buffer, as the reader uses it (its type is not the console's to know). */
interface NodeBufferClass {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): NodeBytes;
  isBuffer(value: unknown): boolean;
}
/** A Node Buffer: its byte search (memchr) and its UTF-8 slice. */
interface NodeBytes {
  indexOf(byte: number, from: number): number;
  toString(encoding: 'utf8', start: number, end: number): string;
}

/**
 * Node's own Buffer, or undefined: a global Buffer alone is not taken as Node's, since a browser bundle may install a
 * polyfill (a JS decoder, slower than TextDecoder) under that name.
 */
function nodeBufferClass(): NodeBufferClass | undefined {
  const platform = globalThis as { Buffer?: NodeBufferClass; process?: { versions?: { node?: string } } };
  return platform.process?.versions?.node === undefined ? undefined : platform.Buffer;
}

/**
 * Node's Buffer, when the platform is Node (the console's browser has none). Its search finds a line end with memchr, where
 * V8's own `Uint8Array.prototype.indexOf` looks at one byte at a time: a chunk of an LF-only stream is searched whole for a
 * CR it does not hold, about 2 µs for the 4 KB of a short chat stream against 0.1 µs. Its UTF-8 slice is the decode
 * TextDecoder calls, without the wrapper's checks and the view it is given (the same text for any bytes: see
 * `utf8Text`).
 */
const NODE_BUFFER = nodeBufferClass();
/** The decoder where there is no Buffer: a non-streaming decode keeps no state, so one serves every reader. */
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/** `bytes` as a Node Buffer over the same memory (a Buffer as it is); undefined without Node's Buffer. */
function nodeBytes(bytes: Uint8Array): NodeBytes | undefined {
  if (NODE_BUFFER === undefined) return undefined;
  return NODE_BUFFER.isBuffer(bytes) ? (bytes as unknown as NodeBytes) : NODE_BUFFER.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The index of `byte` in `bytes` from `from` (-1: none), searched through `node`, the same bytes as a Buffer, when there is one. */
function find(bytes: Uint8Array, node: NodeBytes | undefined, byte: number, from: number): number {
  return node === undefined ? bytes.indexOf(byte, from) : node.indexOf(byte, from);
}

/**
 * The text of `bytes` from `start` to `end` decoded as UTF-8, a byte order mark kept and a malformed sequence made U+FFFD:
 * what TextDecoder('utf-8', { ignoreBOM: true }) gives, which under Node calls the very decode Buffer's slice does.
 */
function utf8Text(bytes: Uint8Array, node: NodeBytes | undefined, start: number, end: number): string {
  return node === undefined ? DECODER.decode(bytes.subarray(start, end)) : node.toString('utf8', start, end);
}

/** The bytes of a last line read at the stream's end, when nothing of it is in the chunk at hand. */
const NO_BYTES = new Uint8Array(0);
/** What an event with no lines (or bytes) of a kind holds: one list shared by all, never written to. */
const NO_LINES: readonly string[] = Object.freeze([]);
const NO_PIECES = Object.freeze([]) as unknown as Uint8Array[];

/**
 * Feeds chunks of an event stream in and gets each event out once its blank line arrives. Each byte is looked at once;
 * what is held is the event being read (its lines and bytes so far), never more than `limits.eventBytes`.
 * Line ends are CR LF, LF or CR (a CR ending one chunk and an LF starting the next are one line end).
 */
export class SseReader {
  /** Set once a cap was passed: the reader then reads nothing more. */
  overflow: SseOverflow | undefined;
  private readonly limits: SseLimits;
  private lastId = '';
  private streamBytes = 0;
  /** No line was read yet: the first may start with a byte order mark. */
  private atStart = true;
  /** The last line ended with a CR: an LF right after it belongs to that line end. */
  private afterCr = false;
  /** The event's bytes so far (NO_PIECES until it has some: most events are one piece, made as a list of one). */
  private raw: Uint8Array[] = NO_PIECES;
  private eventBytes = 0;
  /** The start of a line a chunk did not end, held until the chunk that does (most lines end in the chunk they start in). */
  private line: Uint8Array[] = [];
  private others: string[] = NO_LINES as string[];
  private type = '';
  /** The event's first data line's value, and the later ones' (most events have one). */
  private data: string | undefined;
  private moreData: string[] | undefined;
  private retry: number | undefined;

  constructor(limits: SseLimits = { eventBytes: MAX_SSE_EVENT_BYTES, streamBytes: MAX_SSE_STREAM_BYTES }) {
    this.limits = limits;
  }

  /** Whether part of an event is held (false: the chunks so far ended exactly at the end of an event). */
  get holding(): boolean {
    return this.eventBytes > 0;
  }

  /** The events `chunk` completed. Past a cap, `overflow` is set and the events before it are returned; later chunks are ignored. */
  push(chunk: Uint8Array): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.overflow) return events;
    this.streamBytes += chunk.length;
    if (this.streamBytes > this.limits.streamBytes) {
      this.overflow = 'stream';
      return events;
    }
    // A plain view of a Node Buffer: a Buffer's own subarray makes a Buffer through its subclass, a Uint8Array's is V8's.
    const bytes = chunk.constructor === Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // The same bytes as a Node Buffer, to search and decode (none in a browser).
    const node = nodeBytes(chunk);
    /** Where the line being read starts in the chunk, how far the chunk is counted into the event, and where the event's bytes not yet in `raw` start. */
    let from = 0;
    let held = 0;
    let unkept = 0;
    if (this.afterCr && bytes.length > 0) {
      this.afterCr = false;
      // The LF of a CR LF split between chunks: it belongs to the line end already read (and its bytes to the next event's).
      if (bytes[0] === LF) from = 1;
    }
    let nextCr = find(bytes, node, CR, from);
    let nextLf = find(bytes, node, LF, from);
    while (nextCr >= 0 || nextLf >= 0) {
      const end = nextCr < 0 ? nextLf : nextLf < 0 ? nextCr : Math.min(nextCr, nextLf);
      let after = end + 1;
      if (bytes[end] === CR) {
        if (after < bytes.length) {
          if (bytes[after] === LF) after += 1;
        } else {
          this.afterCr = true;
        }
      }
      if (!this.hold(after - held)) return events;
      held = after;
      const event = this.endLine(bytes, node, from, end);
      // An event's bytes in this chunk join its raw bytes once it ends: one piece per event and chunk, not one per line.
      if (event) {
        event.raw = withPiece(event.raw, bytes.subarray(unkept, after));
        unkept = after;
        events.push(event);
      }
      from = after;
      if (nextCr >= 0 && nextCr < from) nextCr = find(bytes, node, CR, from);
      if (nextLf >= 0 && nextLf < from) nextLf = find(bytes, node, LF, from);
    }
    if (held < bytes.length && this.hold(bytes.length - held)) this.line.push(bytes.subarray(from));
    // The start of an event this chunk did not end is held with it.
    if (!this.overflow && unkept < bytes.length) this.raw = withPiece(this.raw, bytes.subarray(unkept));
    return events;
  }

  /** The stream ended: what is held (an event without its blank line, its last line read even without a line end), or undefined. */
  end(): SseEvent | undefined {
    if (this.overflow || !this.holding) return undefined;
    const last = this.line.some((piece) => piece.length > 0) ? this.endLine(NO_BYTES, undefined, 0, 0) : undefined;
    return last ?? this.dispatch(false);
  }

  /** Counts `length` more bytes into the event being read; false (and `overflow` set) when that passes the cap. */
  private hold(length: number): boolean {
    this.eventBytes += length;
    if (this.eventBytes > this.limits.eventBytes) {
      this.overflow = 'event';
      // Nothing more is read: what was held goes now.
      this.raw = NO_PIECES;
      this.line = [];
      this.others = NO_LINES as string[];
      return false;
    }
    return true;
  }

  /**
   * Reads the line just ended, `chunk` from `from` to `end` after what earlier chunks held of it; the event when it was the
   * blank line that ends one. A `data:` line is told by its bytes and only its value decoded; any other line is decoded
   * whole and kept in the event's `others`.
   */
  private endLine(chunk: Uint8Array, chunkNode: NodeBytes | undefined, from: number, end: number): SseEvent | undefined {
    let bytes = chunk;
    let node = chunkNode;
    let start = from;
    let stop = end;
    const pieces = this.line;
    if (pieces.length > 0) {
      if (end > from) pieces.push(chunk.subarray(from, end));
      bytes = pieces.length === 1 ? pieces[0]! : concat(pieces);
      node = nodeBytes(bytes);
      start = 0;
      stop = bytes.length;
      this.line = [];
    }
    if (this.atStart) {
      this.atStart = false;
      // A byte order mark at the very start of the stream is left out.
      if (stop - start >= 3 && bytes[start] === BOM[0] && bytes[start + 1] === BOM[1] && bytes[start + 2] === BOM[2]) start += 3;
    }
    if (start === stop) return this.dispatch(true);
    // The field name runs to the first colon (the whole line when it has none): scanned within the line only.
    let colon = start;
    while (colon < stop && bytes[colon] !== COLON) colon += 1;
    if (colon < stop && colon - start === 4 && isData(bytes, start)) {
      let value = colon + 1;
      if (value < stop && bytes[value] === SPACE) value += 1;
      this.addData(value === stop ? '' : utf8Text(bytes, node, value, stop));
      return undefined;
    }
    const line = utf8Text(bytes, node, start, stop);
    this.others = withPiece(this.others, line);
    if (colon === start) return undefined;
    const at = colon === stop ? -1 : line.indexOf(':');
    const field = at < 0 ? line : line.slice(0, at);
    let value = at < 0 ? '' : line.slice(at + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    // `data` with no colon: a data line with an empty value.
    if (field === 'data') this.addData(value);
    else if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) this.retry = Number(value);
    return undefined;
  }

  /** Adds a data line's value to the event's (most events have one: no list made for it). */
  private addData(value: string): void {
    if (this.data === undefined) this.data = value;
    else (this.moreData ??= []).push(value);
  }

  private dispatch(complete: boolean): SseEvent {
    const first = this.data;
    const more = this.moreData;
    const event: SseEvent = {
      type: this.type,
      data: more === undefined ? first : [first, ...more].join('\n'),
      id: this.lastId,
      others: this.others,
      raw: this.raw,
      complete,
    };
    if (this.retry !== undefined) event.retry = this.retry;
    this.raw = NO_PIECES;
    this.eventBytes = 0;
    this.others = NO_LINES as string[];
    this.type = '';
    this.data = undefined;
    this.moreData = undefined;
    this.retry = undefined;
    return event;
  }
}

/** `list` with `item` added: a new list of one in place of a shared empty one (NO_PIECES, NO_LINES), else `list` itself. */
function withPiece<T>(list: T[], item: T): T[] {
  if (list === NO_PIECES || list === NO_LINES) return [item];
  list.push(item);
  return list;
}

/** Whether the four bytes of `bytes` at `at` spell `data`. */
function isData(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === DATA[0] && bytes[at + 1] === DATA[1] && bytes[at + 2] === DATA[2] && bytes[at + 3] === DATA[3];
}

/** The bytes of `pieces` in one array. */
export function concat(pieces: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

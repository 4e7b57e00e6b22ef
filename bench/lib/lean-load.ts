// The bench's lean HTTP/1.1 client: one keep-alive connection running one exchange at a time, its request bytes made once, each answer read only as far as it takes to find its end (RFC 9112 §6.3), with a bounded wait.
import net from 'node:net';

/** One request as the socket sends it: its bytes (made once for a fixed path), and whether it is a HEAD (whose answer has no body). */
export interface LeanRequest {
  bytes: Buffer;
  head: boolean;
}

/** A whole answer: its final status and when its first body byte came (NaN: it had none). */
export interface LeanAnswer {
  status: number;
  firstByteAt: number;
}

/** How long an exchange may take, request written to the answer's end, before it fails and its connection is dropped. */
export const LEAN_EXCHANGE_TIMEOUT_MS = 30_000;

const CRLF_CRLF = Buffer.from('\r\n\r\n');
/** A blank line of a head whose lines end in a bare LF (a head of CRLF lines has neither before its CRLF CRLF). */
const LF_LF = Buffer.from('\n\n');
const LF_CRLF = Buffer.from('\n\r\n');
const BARE_LF_HEAD = 'a head whose lines end in a bare LF';
/** The most bytes a head may take before its blank line (llhttp, which undici reads with, allows 80 KiB by default). */
const MAX_HEAD_BYTES = 80 * 1024;
const HEAD_TOO_LONG = `a head past ${MAX_HEAD_BYTES / 1024} KiB`;
/** Headers the client writes itself from the origin and the body. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding']);

/** The request bytes for a method, a path, headers and a body (`host` and `content-length` written here, never given). */
export function leanRequest(
  origin: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): LeanRequest {
  const payload = body === undefined ? undefined : Buffer.from(body);
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${origin.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (OWN_HEADERS.has(name.toLowerCase())) throw new Error(`the lean client writes ${name} itself`);
    head += `${name}: ${value}\r\n`;
  }
  if (payload !== undefined) head += `content-length: ${payload.length}\r\n`;
  head += '\r\n';
  const bytes = payload === undefined ? Buffer.from(head) : Buffer.concat([Buffer.from(head), payload]);
  return { bytes, head: method.toUpperCase() === 'HEAD' };
}

/** How an answer's body ends (RFC 9112 §6.3): none, after a length, after its chunks, or when the server closes. */
type Framing = { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' };

/** What a final answer's head says: its status, how its body ends, whether the connection stays, and the server's keep-alive hint. */
interface Head {
  status: number;
  framing: Framing;
  keepAlive: boolean;
  keepAliveMs: number | undefined;
}

/** Reads an answer's head (without its blank line): throws on a line ended by a bare LF, or a status line or a length it cannot read. */
function readHead(text: string, request: LeanRequest): Head {
  const lines = text.split('\r\n');
  // A bare LF left in a line ended another line there (undici refuses it; read as CRLF lines, its fields would be lost).
  if (lines.some((line) => line.includes('\n'))) throw new Error(BARE_LF_HEAD);
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]!);
  if (!statusLine) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 40))}`);
  const status = Number(statusLine[2]);
  let codings: string[] | undefined;
  let length: number | undefined;
  let connection: string[] = [];
  let keepAliveMs: number | undefined;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(line.slice(0, 40))}`);
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    const list = () =>
      value
        .toLowerCase()
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    if (name === 'transfer-encoding') codings = [...(codings ?? []), ...list()];
    else if (name === 'content-length') {
      if (!/^\d+$/.test(value) || (length !== undefined && length !== Number(value)))
        throw new Error(`a content-length it cannot read: ${value}`);
      length = Number(value);
    } else if (name === 'connection') connection = [...connection, ...list()];
    else if (name === 'keep-alive') {
      const timeout = /(?:^|[,;\s])timeout=(\d+)/i.exec(value);
      if (timeout) keepAliveMs = Number(timeout[1]) * 1000;
    }
  }
  let keepAlive = statusLine[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  let framing: Framing;
  if (request.head || status < 200 || status === 204 || status === 304) framing = { kind: 'none' };
  else if (codings !== undefined) framing = codings.at(-1) === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
  else if (length !== undefined) framing = length === 0 ? { kind: 'none' } : { kind: 'length', length };
  else framing = { kind: 'close' };
  if (framing.kind === 'close') keepAlive = false;
  return { status, framing, keepAlive, keepAliveMs };
}

/** Where the reader of an answer is: its head, a body of known length, a chunk's size line, its data and CRLF, the trailer, or a body that ends at the close. */
type Phase = 'head' | 'length' | 'size' | 'data' | 'data-end' | 'trailer' | 'close';

/** The exchange under way: who waits for it, what was asked, and the answer so far. */
interface Pending {
  request: LeanRequest;
  resolve: (answer: LeanAnswer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  head: Head | undefined;
  firstByteAt: number;
}

/**
 * One keep-alive connection to an origin that runs one exchange at a time (`exchange`). It reads an answer as far as
 * RFC 9112 §6.3 says it ends: interim 1xx answers skipped, no body for HEAD, 204 and 304, then chunks (the last
 * transfer coding), a length, or the close. Anything else fails the exchange and drops the connection: a status line it
 * cannot read, bytes past an answer's end or between exchanges, a connection lost mid-answer, an answer not whole within
 * the time limit. A connection idle for longer than the server's `keep-alive: timeout` hint (less a second) is dropped
 * before the next request, so no request is written into a connection the server is closing.
 */
export class LeanConnection {
  private socket: net.Socket | undefined;
  private readonly port: number;
  private readonly host: string;
  private readonly timeoutMs: number;
  private pending: Pending | undefined;
  private phase: Phase = 'head';
  /** The head's bytes so far, when it spans reads. */
  private headBytes: Buffer | undefined;
  /** Body bytes left: of the whole body (`length`), of the current chunk (`data`), of its CRLF (`data-end`). */
  private left = 0;
  /** A chunk's size line, or a trailer line, so far. */
  private line = '';
  /** When the last answer ended, and how long the server said it keeps an idle connection. */
  private idleSince = 0;
  private keepAliveMs: number | undefined;

  constructor(origin: URL, timeoutMs = LEAN_EXCHANGE_TIMEOUT_MS) {
    this.host = origin.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(origin.port || 80);
    this.timeoutMs = timeoutMs;
  }

  /** Sends `request` and resolves with its answer once the whole body has been read; one exchange at a time. */
  exchange(request: LeanRequest): Promise<LeanAnswer> {
    if (this.pending) throw new Error('a lean connection runs one exchange at a time');
    if (this.socket && this.keepAliveMs !== undefined && performance.now() - this.idleSince > this.keepAliveMs - 1000) this.drop();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`the answer was not whole after ${this.timeoutMs} ms`)), this.timeoutMs);
      this.pending = { request, resolve, reject, timer, head: undefined, firstByteAt: Number.NaN };
      this.phase = 'head';
      this.headBytes = undefined;
      this.connected().write(request.bytes);
    });
  }

  /** Closes the connection (an exchange under way fails). */
  close(): void {
    if (this.pending) this.fail(new Error('the connection was closed by the client'));
    else this.drop();
  }

  private connected(): net.Socket {
    if (this.socket) return this.socket;
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.read(chunk);
    });
    // A socket this connection let go of fails nothing: a newer one may be under way.
    const lost = (error?: Error) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      socket.destroy();
      if (!this.pending) return;
      if (this.phase === 'close' && error === undefined) this.settle();
      else this.fail(error ?? new Error('the connection closed before the answer ended'));
    };
    socket.on('error', lost);
    socket.on('close', () => lost());
    this.socket = socket;
    return socket;
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
  }

  /** The bytes of one read: the head, then the body's framing, until they run out or the answer ends. */
  private read(chunk: Buffer): void {
    const pending = this.pending;
    if (!pending) {
      // Bytes when no request is out: the protocol is broken, the next exchange connects again.
      this.drop();
      return;
    }
    let at = 0;
    while (this.phase === 'head') {
      const bytes = this.headBytes === undefined ? chunk.subarray(at) : Buffer.concat([this.headBytes, chunk.subarray(at)]);
      const end = bytes.indexOf(CRLF_CRLF);
      if (end < 0) {
        // A head ended by a blank line of bare LFs is no head this client reads (undici refuses it too): failed at once, not at the time limit.
        if (bytes.includes(LF_LF) || bytes.includes(LF_CRLF)) {
          this.fail(new Error(BARE_LF_HEAD));
          return;
        }
        if (bytes.length > MAX_HEAD_BYTES) {
          this.fail(new Error(HEAD_TOO_LONG));
          return;
        }
        this.headBytes = bytes;
        return;
      }
      this.headBytes = undefined;
      // Past the cap however the reads cut it (checked above while the blank line had not come).
      if (end > MAX_HEAD_BYTES) {
        this.fail(new Error(HEAD_TOO_LONG));
        return;
      }
      let head: Head;
      try {
        head = readHead(bytes.toString('latin1', 0, end), pending.request);
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      chunk = bytes;
      at = end + 4;
      // An interim answer (100 Continue, 103 Early Hints): the final one's head follows.
      if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
      if (head.status === 101) {
        this.fail(new Error('101 Switching Protocols is no answer the bench reads'));
        return;
      }
      pending.head = head;
      this.keepAliveMs = head.keepAliveMs;
      const { framing } = head;
      if (framing.kind === 'none') return this.finish(chunk, at);
      this.phase = framing.kind === 'length' ? 'length' : framing.kind === 'chunked' ? 'size' : 'close';
      this.left = framing.kind === 'length' ? framing.length : 0;
      this.line = '';
    }
    while (at < chunk.length) {
      switch (this.phase) {
        case 'length': {
          const taken = Math.min(this.left, chunk.length - at);
          this.bodyByte(pending);
          this.left -= taken;
          at += taken;
          if (this.left === 0) return this.finish(chunk, at);
          return;
        }
        case 'close':
          this.bodyByte(pending);
          return;
        case 'size': {
          if (!this.lineUpTo(chunk, at)) return;
          at = chunk.indexOf(10, at) + 1;
          const size = /^([0-9a-fA-F]+)[ \t]*(?:;.*)?\r?$/.exec(this.line);
          this.line = '';
          if (!size) {
            this.fail(new Error('a chunk size line it cannot read'));
            return;
          }
          this.left = Number.parseInt(size[1]!, 16);
          this.phase = this.left === 0 ? 'trailer' : 'data';
          break;
        }
        case 'data': {
          const taken = Math.min(this.left, chunk.length - at);
          this.bodyByte(pending);
          this.left -= taken;
          at += taken;
          if (this.left === 0) {
            this.phase = 'data-end';
            this.left = 2;
          }
          break;
        }
        case 'data-end': {
          // The CRLF after a chunk's data, byte by byte (it may span reads).
          if (chunk[at] !== (this.left === 2 ? 13 : 10)) {
            this.fail(new Error("a chunk's data not followed by CRLF"));
            return;
          }
          this.left -= 1;
          at += 1;
          if (this.left === 0) this.phase = 'size';
          break;
        }
        case 'trailer': {
          // The chunks end at an empty line: right after the zero size line, or after the trailer's fields.
          if (!this.lineUpTo(chunk, at)) return;
          at = chunk.indexOf(10, at) + 1;
          const empty = this.line === '' || this.line === '\r';
          this.line = '';
          if (empty) return this.finish(chunk, at);
          break;
        }
        default:
          return;
      }
    }
  }

  /** Adds `chunk` from `at` to the line being read, up to its LF; whether the LF was in it. */
  private lineUpTo(chunk: Buffer, at: number): boolean {
    const newline = chunk.indexOf(10, at);
    this.line += chunk.toString('latin1', at, newline < 0 ? chunk.length : newline);
    if (this.line.length > 8192) {
      this.fail(new Error('a chunk size or trailer line past 8 KiB'));
      return false;
    }
    return newline >= 0;
  }

  /** Notes the first body byte's time (the read that brought it). */
  private bodyByte(pending: Pending): void {
    if (Number.isNaN(pending.firstByteAt)) pending.firstByteAt = performance.now();
  }

  /** The answer ended at `at` of `chunk`: anything after it breaks the protocol (one request is out at a time). */
  private finish(chunk: Buffer, at: number): void {
    if (at < chunk.length) {
      this.fail(new Error(`${chunk.length - at} bytes past the answer's end`));
      return;
    }
    this.settle();
  }

  private settle(): void {
    const pending = this.pending!;
    this.pending = undefined;
    clearTimeout(pending.timer);
    this.phase = 'head';
    this.idleSince = performance.now();
    if (!pending.head!.keepAlive) this.drop();
    pending.resolve({ status: pending.head!.status, firstByteAt: pending.firstByteAt });
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    this.phase = 'head';
    this.headBytes = undefined;
    this.drop();
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.reject(error);
  }
}

// The lean load generator: `concurrency` keep-alive sockets, each sending a request written once as bytes and reading the answer's head, then its body by its length or its chunks, as wrk and autocannon do.
import net from 'node:net';

/** One request as the socket sends it: the bytes, made once per path. */
export interface LeanRequest {
  bytes: Buffer;
}

/** What one exchange ended as: its status, when its first body byte came, and whether the server keeps the connection. */
export interface LeanAnswer {
  status: number;
  firstByteAt: number;
  keepAlive: boolean;
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');

/** The request bytes for a method, a path, headers and a body (`host` and `content-length` added). */
export function leanRequest(origin: URL, method: string, path: string, headers: Record<string, string>, body: string | undefined): LeanRequest {
  const payload = body === undefined ? undefined : Buffer.from(body);
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${origin.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (payload !== undefined) head += `content-length: ${payload.length}\r\n`;
  head += '\r\n';
  return { bytes: payload === undefined ? Buffer.from(head) : Buffer.concat([Buffer.from(head), payload]) };
}

/** Where the reader of one answer is: its head, a body of known length, a chunk's size line, its data, or the end of the chunks. */
type Phase = 'head' | 'length' | 'size' | 'data' | 'data-end' | 'trailer';

/**
 * One keep-alive connection that runs one exchange at a time (`exchange`), parsing just enough of HTTP/1.1 to know where
 * an answer ends: the status line, `content-length`, `transfer-encoding: chunked` and `connection: close`.
 */
export class LeanConnection {
  private socket: net.Socket | undefined;
  private readonly port: number;
  private readonly host: string;
  private phase: Phase = 'head';
  /** The head's bytes so far (an answer's head rarely spans two reads). */
  private head: Buffer | undefined;
  /** Body bytes left: of the whole body (`length`) or of the current chunk (`data`). */
  private left = 0;
  /** A chunk's size line so far, or the trailer's last bytes. */
  private line = '';
  private answer: LeanAnswer | undefined;
  private settle: ((answer: LeanAnswer) => void) | undefined;
  private fail: ((error: Error) => void) | undefined;

  constructor(origin: URL) {
    this.host = origin.hostname;
    this.port = Number(origin.port || 80);
  }

  /** Sends `request` and resolves with its answer once the whole body has been read. */
  exchange(request: LeanRequest): Promise<LeanAnswer> {
    return new Promise((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
      this.phase = 'head';
      this.head = undefined;
      this.answer = undefined;
      this.connected().write(request.bytes);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connected(): net.Socket {
    if (this.socket) return this.socket;
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    // A socket this connection let go of (`close`, after an answer with `connection: close`) fails nothing: a newer one may be under way.
    const lost = (error?: Error) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      socket.destroy();
      const fail = this.fail;
      this.settle = undefined;
      this.fail = undefined;
      fail?.(error ?? new Error('the connection closed before the answer ended'));
    };
    socket.on('error', lost);
    socket.on('close', () => lost());
    this.socket = socket;
    return socket;
  }

  private read(chunk: Buffer): void {
    let at = 0;
    if (this.phase === 'head') {
      const bytes = this.head === undefined ? chunk : Buffer.concat([this.head, chunk]);
      const end = bytes.indexOf(CRLF_CRLF);
      if (end < 0) {
        this.head = bytes;
        return;
      }
      this.head = undefined;
      this.startBody(bytes.toString('latin1', 0, end));
      chunk = bytes;
      at = end + 4;
      if (at < chunk.length && this.answer) this.answer.firstByteAt = performance.now();
    } else if (this.answer && Number.isNaN(this.answer.firstByteAt)) this.answer.firstByteAt = performance.now();
    while (at < chunk.length || this.phase === 'length') {
      switch (this.phase) {
        case 'length': {
          const taken = Math.min(this.left, chunk.length - at);
          this.left -= taken;
          at += taken;
          if (this.left === 0) return this.done();
          return;
        }
        case 'size': {
          const newline = chunk.indexOf(10, at);
          this.line += chunk.toString('latin1', at, newline < 0 ? chunk.length : newline);
          if (newline < 0) return;
          at = newline + 1;
          this.left = Number.parseInt(this.line, 16);
          this.line = '';
          this.phase = this.left === 0 ? 'trailer' : 'data';
          break;
        }
        case 'data': {
          const taken = Math.min(this.left, chunk.length - at);
          this.left -= taken;
          at += taken;
          if (this.left === 0) {
            this.phase = 'data-end';
            this.left = 2;
          }
          break;
        }
        case 'data-end': {
          const taken = Math.min(this.left, chunk.length - at);
          this.left -= taken;
          at += taken;
          if (this.left === 0) this.phase = 'size';
          break;
        }
        case 'trailer': {
          // The chunks end at an empty line: right after the zero size line, or after the trailer's fields.
          const newline = chunk.indexOf(10, at);
          this.line += chunk.toString('latin1', at, newline < 0 ? chunk.length : newline);
          if (newline < 0) return;
          at = newline + 1;
          const empty = this.line === '' || this.line === '\r';
          this.line = '';
          if (empty) return this.done();
          break;
        }
        default:
          return;
      }
    }
  }

  /** Reads the head's status and framing, and sets where the body ends. */
  private startBody(head: string): void {
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const keepAlive = !/\r\nconnection: *close/.test(lower);
    this.answer = { status, firstByteAt: Number.NaN, keepAlive };
    if (/\r\ntransfer-encoding: *chunked/.test(lower)) {
      this.phase = 'size';
      this.line = '';
      return;
    }
    const length = /\r\ncontent-length: *(\d+)/.exec(lower);
    this.phase = 'length';
    this.left = length ? Number(length[1]) : 0;
  }

  private done(): void {
    const answer = this.answer!;
    const settle = this.settle;
    this.phase = 'head';
    this.settle = undefined;
    this.fail = undefined;
    if (!answer.keepAlive) this.close();
    settle?.(answer);
  }
}

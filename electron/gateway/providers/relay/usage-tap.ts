// Reads an upstream answer's usage from its bytes as they pass (SSE events one by one, a JSON answer from a bounded copy), and drops the events the caller must not see.
import type { RelayKind, UsageCount } from './kind.ts';

/** Most of a JSON (non-SSE) answer kept to read its usage at the end; a longer answer is billed by estimate. */
export const JSON_TAP_LIMIT = 8 * 1024 * 1024;

const FRAME_END = /\r?\n\r?\n/;

export class UsageTap {
  readonly usage: UsageCount = { deliveredText: '' };
  private readonly kind: RelayKind;
  private readonly sse: boolean;
  private readonly json: boolean;
  private readonly hideUsage: boolean;
  private readonly decoder = new TextDecoder();
  private pending = '';
  private readonly copy: Uint8Array[] = [];
  private copied = 0;

  /** `format`: an event stream, a JSON answer, or other bytes (audio: passed, not read); `hideUsage`: drop the usage event the caller did not ask for (events are then re-framed). */
  constructor(kind: RelayKind, format: 'sse' | 'json' | 'other', hideUsage: boolean) {
    this.kind = kind;
    this.sse = format === 'sse';
    this.json = format === 'json';
    this.hideUsage = this.sse && hideUsage;
  }

  /** The bytes of `chunk` to pass on (all of them, unless events are being dropped: then the whole events kept so far). */
  pass(chunk: Uint8Array): Uint8Array {
    if (!this.sse) {
      if (this.json && this.copied + chunk.length <= JSON_TAP_LIMIT) this.copy.push(chunk);
      this.copied += chunk.length;
      return chunk;
    }
    this.pending += this.decoder.decode(chunk, { stream: true });
    let kept = '';
    for (let match = FRAME_END.exec(this.pending); match; match = FRAME_END.exec(this.pending)) {
      const frame = this.pending.slice(0, match.index + match[0].length);
      this.pending = this.pending.slice(frame.length);
      if (this.readFrame(frame)) kept += frame;
    }
    return this.hideUsage ? new TextEncoder().encode(kept) : chunk;
  }

  /** What is left to pass on once the upstream's body ended (a last event without its blank line), after reading the whole answer. */
  end(): Uint8Array {
    if (!this.sse) {
      if (this.json && this.copied <= JSON_TAP_LIMIT) this.readJson(Buffer.concat(this.copy).toString('utf8'));
      return new Uint8Array(0);
    }
    this.pending += this.decoder.decode();
    const rest = this.pending;
    this.pending = '';
    const keep = rest.trim() === '' || this.readFrame(rest);
    return this.hideUsage && keep ? new TextEncoder().encode(rest) : new Uint8Array(0);
  }

  /** Reads one SSE event's data; false when it is to be dropped. */
  private readFrame(frame: string): boolean {
    const data = frame
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (data === '' || data === '[DONE]') return true;
    try {
      return this.kind.read(JSON.parse(data), this.usage, this.hideUsage);
    } catch {
      return true;
    }
  }

  private readJson(text: string): void {
    try {
      this.kind.read(JSON.parse(text), this.usage, false);
    } catch {
      // A cut or malformed answer: billed by estimate.
    }
  }
}

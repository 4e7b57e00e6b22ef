// Reads an upstream answer's usage from its bytes as they pass (SSE events one by one, JSON array elements one by one, a JSON answer from a bounded copy), drops the events the caller must not see and renames the model back to the caller's name.
import { JsonArrayPieces } from './json-array-pieces.ts';
import type { RelayKind, UsageCount } from './kind.ts';

/** Most of a JSON (non-SSE) answer kept to read its usage (and rename its model) at the end; a longer answer is billed by estimate and passed as it is. */
export const JSON_TAP_LIMIT = 8 * 1024 * 1024;

const FRAME_END = /\r?\n\r?\n/;

export class UsageTap {
  readonly usage: UsageCount = { deliveredText: '' };
  private readonly kind: RelayKind;
  private readonly sse: boolean;
  private readonly json: boolean;
  private readonly hideUsage: boolean;
  private readonly renameTo: string | undefined;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();
  private pending = '';
  /** The last chunk ended with a line feed: the decoder holds no part of a character. */
  private atLineFeed = true;
  private readonly copy: Uint8Array[] = [];
  private copied = 0;
  /** A JSON answer being renamed: undecided until its first character, then an array passed element by element or one value held whole. */
  private shape: 'unknown' | 'array' | 'whole' = 'unknown';
  private readonly array = new JsonArrayPieces();

  /**
   * `format`: an event stream, a JSON answer, or other bytes (audio: passed, not read); `hideUsage`: drop the usage event the caller
   * did not ask for; `renameTo`: the caller's model name, when the channel renamed it, written back over the upstream's in each event.
   */
  constructor(kind: RelayKind, format: 'sse' | 'json' | 'other', hideUsage: boolean, renameTo?: string) {
    this.kind = kind;
    this.sse = format === 'sse';
    this.json = format === 'json';
    this.hideUsage = this.sse && hideUsage;
    this.renameTo = format === 'other' ? undefined : renameTo;
  }

  /** The bytes of `chunk` to pass on: the whole SSE events or array elements complete so far (read, and renamed when asked), else the chunk itself. */
  pass(chunk: Uint8Array): Uint8Array {
    return join(this.pieces(chunk));
  }

  /** What is left to pass on once the upstream's body ended (a last event without its blank line, a held JSON answer), after reading the whole answer. */
  end(): Uint8Array {
    return join(this.endPieces());
  }

  private pieces(chunk: Uint8Array): Uint8Array[] {
    if (this.sse) return this.passEvents(chunk);
    if (this.json && this.renameTo !== undefined) return this.passRenamedJson(chunk);
    if (this.json && this.copied + chunk.length <= JSON_TAP_LIMIT) this.copy.push(chunk);
    this.copied += chunk.length;
    return [chunk];
  }

  private endPieces(): Uint8Array[] {
    if (this.sse) {
      this.pending += this.decoder.decode();
      const rest = this.pending;
      this.pending = '';
      if (rest.trim() === '') return rest === '' ? [] : [this.encoder.encode(rest)];
      const kept = this.readFrame(rest);
      return kept === null ? [] : [this.encoder.encode(kept)];
    }
    if (!this.json) return [];
    if (this.shape === 'array') {
      const rest = this.array.rest() + this.decoder.decode();
      return rest === '' ? [] : [this.encoder.encode(rest)];
    }
    if (this.copied > JSON_TAP_LIMIT) return [];
    const bytes = Buffer.concat(this.copy);
    const value = parsed(bytes.toString('utf8'));
    if (value !== undefined) this.kind.read(value, this.usage, false);
    if (this.shape !== 'whole') return [];
    // A renamed answer was held whole: it goes out now, renamed when it parsed and can be written again, else as it came.
    const renamed = value !== undefined && this.rename(value) ? serialized(value) : undefined;
    return [renamed === undefined ? bytes : this.encoder.encode(renamed)];
  }

  private passEvents(chunk: Uint8Array): Uint8Array[] {
    const startsAnEvent = this.pending === '' && this.atLineFeed;
    this.atLineFeed = chunk[chunk.length - 1] === 0x0a;
    this.pending += this.decoder.decode(chunk, { stream: true });
    const kept: string[] = [];
    let changed = false;
    for (let match = FRAME_END.exec(this.pending); match; match = FRAME_END.exec(this.pending)) {
      const frame = this.pending.slice(0, match.index + match[0].length);
      this.pending = this.pending.slice(frame.length);
      const passed = this.readFrame(frame);
      if (passed !== frame) changed = true;
      if (passed !== null) kept.push(passed);
    }
    // The usual chunk, whole events passed as they came (it and the one before end with a line feed, so no character is split): its own bytes go on.
    if (startsAnEvent && !changed && this.pending === '' && this.atLineFeed) return [chunk];
    return kept.map((text) => this.encoder.encode(text));
  }

  private passRenamedJson(chunk: Uint8Array): Uint8Array[] {
    if (this.shape === 'unknown') {
      const first = Buffer.from(chunk).toString('utf8').trimStart()[0];
      if (first === undefined) return [];
      this.shape = first === '[' ? 'array' : 'whole';
    }
    if (this.shape === 'array') {
      const pieces = this.array.push(this.decoder.decode(chunk, { stream: true }), (element) => {
        const value = parsed(element);
        if (value === undefined) return element;
        this.kind.read(value, this.usage, false);
        return this.rename(value) ? (serialized(value) ?? element) : element;
      });
      return pieces.map((piece) => this.encoder.encode(piece));
    }
    this.copied += chunk.length;
    if (this.copied <= JSON_TAP_LIMIT) {
      this.copy.push(chunk);
      return [];
    }
    // Too long to hold: what was held and the rest pass as they are.
    const held = this.copy.splice(0);
    return [...held, chunk];
  }

  /** One SSE event as it is passed on (renamed when needed), or null when it is dropped. */
  private readFrame(frame: string): string | null {
    const lines = frame.split(/\r?\n/);
    // The usual event is one `data: ` line (lines: it and the two empty ones after it).
    const data =
      lines.length === 3 && lines[0]!.startsWith('data: ')
        ? lines[0]!.slice(6)
        : lines
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
            .join('\n');
    if (data === '' || data === '[DONE]') return frame;
    const value = parsed(data);
    if (value === undefined) return frame;
    if (!this.kind.read(value, this.usage, this.hideUsage)) return null;
    if (!this.rename(value)) return frame;
    // The event's other fields (event:, id:) stay; its data becomes the renamed JSON on one line.
    const others = lines.filter((line) => line !== '' && !line.startsWith('data:'));
    return [...others, `data: ${JSON.stringify(value)}`].join('\n') + '\n\n';
  }

  /** Renames the model in `value` back to the caller's name; true when it changed something. */
  private rename(value: unknown): boolean {
    return this.renameTo !== undefined && this.kind.renameModel(value, this.renameTo);
  }
}

function join(pieces: Uint8Array[]): Uint8Array {
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

/** `value` as JSON text; undefined when it nests too deep to write (JSON.parse reads any depth, JSON.stringify recurses). */
function serialized(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// Reads an upstream answer's usage from its bytes as they pass (SSE events one by one, JSON array elements one by one, a JSON answer from a bounded copy), drops the events the caller must not see and renames the model back to the caller's name.
import { SseReader, type SseEvent } from '../../../../shared/sse-reader.ts';
import type { GatewayError } from '../../errors.ts';
import { TokenCounter } from '../../protocols/neutral/token-counter.ts';
import type { DeliveredText, RelayedUsage } from '../types.ts';
import { JsonArrayPieces } from './json-array-pieces.ts';
import type { RelayKind, TextCount, UsageCount } from './kind.ts';
import { streamCapError } from './stream-caps.ts';

/** Most of a JSON (non-SSE) answer kept to read its usage (and rename its model) at the end; a longer answer is billed by estimate and passed as it is. */
export const JSON_TAP_LIMIT = 8 * 1024 * 1024;

/**
 * Most characters of stream events put off unread (events that can only deliver text, read only if a charge needs the text
 * delivered: a stream that reports its usage never does); past it they are read at once.
 */
export const UNREAD_EVENT_BYTES = 256 * 1024;

const NOTHING = new Uint8Array(0);

/** Decodes one whole array element (no state between calls: an element holds only whole characters). */
const ELEMENT_DECODER = new TextDecoder();
/** Encodes renamed text (no state between calls). */
const ENCODER = new TextEncoder();
const OPEN_BRACKET = 0x5b;

/**
 * The first byte of `chunk` that is not ASCII white space (or a byte order mark), or undefined when there is none: a JSON
 * value starts with an ASCII byte, so the whole chunk need not be decoded to find it.
 */
function firstValueByte(chunk: Uint8Array): number | undefined {
  for (let index = 0; index < chunk.length; index++) {
    const byte = chunk[index]!;
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue;
    // UTF-8's byte order mark (EF BB BF), as TextDecoder drops it.
    if (index === 0 && byte === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
      index += 2;
      continue;
    }
    return byte;
  }
  return undefined;
}

/** The figures `relayed()` copies by name; any other field of a UsageCount but `delivered` must be `never` (see there). */
type CopiedFigures = Pick<UsageCount, 'inputTokens' | 'outputTokens' | 'responseId' | 'outputItems' | 'audioSeconds'> &
  Record<Exclude<keyof UsageCount, 'delivered' | 'inputTokens' | 'outputTokens' | 'responseId' | 'outputItems' | 'audioSeconds'>, never>;

/** A stream event put off unread (its data), or text an event read meanwhile delivered, to count after those before it. */
type Unread = string | { text: string };

export class UsageTap implements DeliveredText {
  /** The text delivered, counted in the order it passed. */
  private readonly delivered = new TokenCounter();
  /** The usage read; its `delivered` is `delivered`, or `queued` while an event is read behind events put off. */
  readonly usage: UsageCount = { delivered: this.delivered };
  /** Set once the answer passed a cap (`shared/sse-reader.ts`): nothing more passes, and the stream must end with this error. */
  failure: GatewayError | undefined;
  private readonly kind: RelayKind;
  private readonly json: boolean;
  private readonly hideUsage: boolean;
  private readonly renameTo: string | undefined;
  /** The event reader of an event stream (none for other answers). */
  private readonly events: SseReader | undefined;
  /** A JSON answer's bytes kept to read at its end: its first chunk, then (made only for a second) the list of them all. */
  private first: Uint8Array | undefined;
  private copy: Uint8Array[] | undefined;
  private copied = 0;
  /** A JSON answer: undecided until its first character, then an array passed element by element or one value (held whole when renamed). */
  private shape: 'unknown' | 'array' | 'whole' = 'unknown';
  /** The element reader of a JSON array answer, made once the answer is seen to be one. */
  private array: JsonArrayPieces | undefined;
  /** The stream events put off unread (see UNREAD_EVENT_BYTES) and the text queued behind them, in order, and their length. */
  private unread: Unread[] = [];
  private unreadBytes = 0;
  /** Where an event read while others are put off hands its text: queued behind theirs (`usage.delivered` while it is read). */
  private readonly queued: TextCount = {
    add: (text) => {
      this.unread.push({ text });
      this.unreadBytes += text.length;
    },
  };

  /**
   * `format`: an event stream, a JSON answer, or other bytes (audio: passed, not read); `hideUsage`: drop the usage event the caller
   * did not ask for; `renameTo`: the caller's model name, when the channel renamed it, written back over the upstream's in each event.
   */
  constructor(kind: RelayKind, format: 'sse' | 'json' | 'other', hideUsage: boolean, renameTo?: string) {
    this.kind = kind;
    this.json = format === 'json';
    this.hideUsage = format === 'sse' && hideUsage;
    this.renameTo = format === 'other' ? undefined : renameTo;
    this.events = format === 'sse' ? new SseReader() : undefined;
  }

  /**
   * The usage read so far, as the seam reports it. Its `delivered` is this tap, whose `tokens` are counted when asked for
   * (the events put off read then). A plain object: an object literal with a getter of its own cost about a microsecond
   * per call (V8 defines such an accessor through its runtime on every evaluation).
   */
  relayed(): RelayedUsage {
    const relayed: RelayedUsage = { delivered: this };
    // The figures read, set one by one (a rest spread of the usage copies it through a slow generic path). The type names
    // every figure of a UsageCount: one added there and not copied here fails to compile.
    const { inputTokens, outputTokens, responseId, outputItems, audioSeconds }: CopiedFigures = this.usage;
    if (inputTokens !== undefined) relayed.inputTokens = inputTokens;
    if (outputTokens !== undefined) relayed.outputTokens = outputTokens;
    if (responseId !== undefined) relayed.responseId = responseId;
    if (outputItems !== undefined) relayed.outputItems = outputItems;
    if (audioSeconds !== undefined) relayed.audioSeconds = audioSeconds;
    return relayed;
  }

  /** The tokens of the text delivered, the events put off read first. */
  get tokens(): number {
    this.readUnread();
    return this.delivered.count;
  }

  /**
   * The bytes of `chunk` to pass on: the whole SSE events or array elements complete so far (read, and renamed when asked), else
   * the chunk itself. Once a cap is passed, `failure` is set and nothing more passes.
   */
  pass(chunk: Uint8Array): Uint8Array {
    if (this.failure) return NOTHING;
    return this.passed(chunk);
  }

  /** What is left to pass on once the upstream's body ended (a last event without its blank line, a held JSON answer), after reading the whole answer. */
  end(): Uint8Array {
    return this.failure ? NOTHING : join(this.endPieces());
  }

  /**
   * True when `end` can pass no bytes: an answer passed as it came (a JSON value not renamed, or other bytes), neither held
   * nor cut into events or elements. Its end then only reads the usage, which can wait until the answer went out.
   */
  endsEmpty(): boolean {
    return this.events === undefined && this.array === undefined && (this.renameTo === undefined || !this.json);
  }

  /** The bytes of `chunk` to pass on (see `pass`): the chunk itself in the usual case, with no list made for it. */
  private passed(chunk: Uint8Array): Uint8Array {
    if (this.events) return this.passEvents(this.events, chunk);
    if (!this.json) return chunk;
    if (this.shape === 'unknown') {
      const first = firstValueByte(chunk);
      // Space before the value passes as it came.
      if (first === undefined) return chunk;
      this.shape = first === OPEN_BRACKET ? 'array' : 'whole';
    }
    if (this.shape === 'array') return this.passElements(chunk);
    if (this.renameTo !== undefined) return this.passRenamedJson(chunk);
    if (this.copied + chunk.length <= JSON_TAP_LIMIT) this.keep(chunk);
    this.copied += chunk.length;
    return chunk;
  }

  /** Keeps a chunk of a JSON answer to read at its end. */
  private keep(chunk: Uint8Array): void {
    if (this.first === undefined) this.first = chunk;
    else (this.copy ??= [this.first]).push(chunk);
  }

  /** The JSON answer's bytes kept (nothing kept: none). */
  private kept(): Buffer {
    const first = this.first;
    if (first === undefined) return Buffer.alloc(0);
    if (this.copy !== undefined) return Buffer.concat(this.copy);
    return Buffer.isBuffer(first) ? first : Buffer.from(first.buffer, first.byteOffset, first.byteLength);
  }

  private endPieces(): Uint8Array[] {
    if (this.events) {
      const last = this.events.end();
      if (!last) return [];
      return this.readEvent(last) ?? [];
    }
    if (!this.json) return [];
    if (this.array) return [this.array.rest()];
    if (this.copied > JSON_TAP_LIMIT) return [];
    const bytes = this.kept();
    const value = parsed(bytes.toString('utf8'));
    if (value !== undefined) this.readWhole(value);
    if (this.renameTo === undefined) return [];
    // A renamed answer was held whole: it goes out now, renamed when it parsed and can be written again, else as it came.
    const renamed = value !== undefined && this.rename(value) ? serialized(value) : undefined;
    return [renamed === undefined ? bytes : ENCODER.encode(renamed)];
  }

  /**
   * Reads a whole JSON answer: its usage now, the text it delivered queued to be counted only if a charge asks for it (an
   * answer that reports its usage, the usual one, never does), within UNREAD_EVENT_BYTES as a stream's put-off events are.
   */
  private readWhole(value: unknown): void {
    this.usage.delivered = this.queued;
    this.kind.read(value, this.usage, false);
    this.usage.delivered = this.delivered;
    if (this.unreadBytes > UNREAD_EVENT_BYTES) this.readUnread();
  }

  private passEvents(events: SseReader, chunk: Uint8Array): Uint8Array {
    const startsAnEvent = !events.holding;
    const kept: Uint8Array[] = [];
    let changed = false;
    for (const event of events.push(chunk)) {
      const passed = this.readEvent(event);
      if (passed !== event.raw) changed = true;
      if (passed) kept.push(...passed);
    }
    if (events.overflow) {
      this.failure = streamCapError(events.overflow);
      return join(kept);
    }
    // The usual chunk, whole events passed as they came: its own bytes go on.
    if (startsAnEvent && !changed && !events.holding) return chunk;
    return join(kept);
  }

  private passElements(chunk: Uint8Array): Uint8Array {
    const array = (this.array ??= new JsonArrayPieces());
    const pieces = array.push(chunk, (element) => {
      const value = parsed(ELEMENT_DECODER.decode(element));
      if (value === undefined) return element;
      this.kind.read(value, this.usage, false);
      const renamed = this.rename(value) ? serialized(value) : undefined;
      return renamed === undefined ? element : ENCODER.encode(renamed);
    });
    if (array.overflow) this.failure = streamCapError(array.overflow);
    return join(pieces);
  }

  private passRenamedJson(chunk: Uint8Array): Uint8Array {
    this.copied += chunk.length;
    if (this.copied <= JSON_TAP_LIMIT) {
      this.keep(chunk);
      return NOTHING;
    }
    // Too long to hold: what was held and the rest pass as they are.
    const held = this.first === undefined ? [] : (this.copy ?? [this.first]);
    this.first = this.copy = undefined;
    return join([...held, chunk]);
  }

  /** One SSE event as it is passed on: its own bytes, renamed bytes, or null when it is dropped. */
  private readEvent(event: SseEvent): Uint8Array[] | null {
    const data = event.data;
    if (data === undefined || data === '' || data === '[DONE]') return event.raw;
    // An event that can only deliver text (and is not renamed) passes as it came, read later and only if its text is asked for.
    if (this.renameTo === undefined && this.kind.onlyDelivers(data)) {
      this.unread.push(data);
      this.unreadBytes += data.length;
      if (this.unreadBytes > UNREAD_EVENT_BYTES) this.readUnread();
      return event.raw;
    }
    const value = parsed(data);
    if (value === undefined) return event.raw;
    // While events are put off, the text this one delivers waits behind theirs (the count follows the order it passed),
    // within the same bound: a stream whose later events all name their usage would otherwise queue all its text.
    this.usage.delivered = this.unread.length > 0 ? this.queued : this.delivered;
    const kept = this.kind.read(value, this.usage, this.hideUsage);
    if (this.unreadBytes > UNREAD_EVENT_BYTES) this.readUnread();
    if (!kept) return null;
    const renamed = this.rename(value) ? serialized(value) : undefined;
    // Not renamed, or nested too deep to write again: the event passes as it came.
    if (renamed === undefined) return event.raw;
    // The event's other fields (event:, id:) stay; its data becomes the renamed JSON on one line.
    return [ENCODER.encode([...event.others, `data: ${renamed}`].join('\n') + '\n\n')];
  }

  /** Reads the events put off and counts the text queued behind them, in the order they passed (each event can only deliver text). */
  private readUnread(): void {
    if (this.unread.length === 0) return;
    const unread = this.unread;
    this.unread = [];
    this.unreadBytes = 0;
    this.usage.delivered = this.delivered;
    for (const item of unread) {
      if (typeof item !== 'string') {
        this.delivered.add(item.text);
        continue;
      }
      const value = parsed(item);
      if (value !== undefined) this.kind.read(value, this.usage, this.hideUsage);
    }
  }

  /** Renames the model in `value` back to the caller's name; true when it changed something. */
  private rename(value: unknown): boolean {
    return this.renameTo !== undefined && this.kind.renameModel(value, this.renameTo);
  }
}

function join(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 0) return NOTHING;
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

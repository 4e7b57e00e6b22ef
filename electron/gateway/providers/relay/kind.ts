// What relay needs of one upstream kind: its endpoint paths, its credential header, how a body is prepared and how its answer's usage is read.
import type { TokenCounter } from '../../protocols/neutral/token-counter.ts';
import type { PassthroughRequest, RelayChannel } from '../types.ts';

/** What a reader hands the text delivered to, piece by piece in order (a TokenCounter, or a queue in front of one). */
export type TextCount = Pick<TokenCounter, 'add'>;

/** Usage as a tap collects it; a reader fills it in from each event (or whole answer) it sees. */
export interface UsageCount {
  inputTokens?: number;
  outputTokens?: number;
  /** The text (and tool arguments) delivered, counted as it passes: constant memory however long the answer. */
  delivered: TextCount;
  /** Responses API: the id of the response the upstream created. */
  responseId?: string;
  /** Responses API: the output items of the finished response (a JSON Response, or the stream's `response.completed`). */
  outputItems?: Record<string, unknown>[];
  /** Transcriptions: the seconds of audio the upstream says it heard (`usage.type: "duration"`). */
  audioSeconds?: number;
}

/** The body sent upstream, and whether the usage event it asks for must be hidden from the caller (who did not ask for it). */
export interface PreparedBody {
  body: Buffer;
  hideUsage: boolean;
}

export interface RelayKind {
  /** The upstream URL of `request` on `channel`. */
  url(channel: RelayChannel, request: PassthroughRequest): string;
  /** The header carrying the channel's credential. */
  auth(key: string): Record<string, string>;
  /** The caller's raw body as the upstream gets it: untouched, but for the channel's model name (and OpenAI's usage option); `parsed` is `raw` as already parsed, when it was. */
  prepare(raw: Buffer, channel: RelayChannel, request: PassthroughRequest, parsed?: unknown): PreparedBody;
  /** Reads one event of a stream (or one whole answer) into `usage`; false: the event is dropped (a usage event the caller did not ask for). */
  read(data: unknown, usage: UsageCount, hideUsage: boolean): boolean;
  /** Sets the model name one event (or whole answer) carries to `name`, the caller's; true when it carried one. */
  renameModel(data: unknown, name: string): boolean;
  /**
   * True when a stream event whose data is `data` can give `read` nothing but delivered text (no usage, no response id,
   * never dropped), told from its text without parsing it: such an event is read only when the delivered text is asked for.
   */
  onlyDelivers(data: string): boolean;
}

/**
 * True when `data` holds none of `words` and no `\u` escape (which could spell one): a JSON text without them has no key
 * or string value equal to one of them.
 */
export function holdsNone(data: string, words: readonly string[]): boolean {
  if (data.includes('\\u')) return false;
  for (const word of words) if (data.includes(word)) return false;
  return true;
}

/** `base` without its trailing slashes. */
export function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/**
 * The JSON body with `edit` applied, re-serialized; the raw bytes when `edit` changes nothing. `edit` sets top-level fields
 * only (it never changes a nested value in place), so it is handed a shallow copy of `parsed` (`raw` as already parsed)
 * when there is one, and `raw` is parsed only when there is not.
 */
export function editJson(raw: Buffer, edit: (body: Record<string, unknown>) => boolean, parsed?: unknown): Buffer {
  let body: unknown = parsed;
  if (body === undefined) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return raw;
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return raw;
  const copy = { ...(body as Record<string, unknown>) };
  return edit(copy) ? Buffer.from(JSON.stringify(copy)) : raw;
}

/** `value` as a record, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * `value` when it is a whole non-negative number; undefined when absent (undefined or null); NaN when present but no count
 * (a negative, a fraction, a string), so the charge knows the upstream said something it cannot believe.
 */
export function count(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : Number.NaN;
}

/** Sets `body[field]` to `name` when it holds a string; true when it did. */
export function renameField(body: Record<string, unknown> | undefined, field: string, name: string): boolean {
  if (typeof body?.[field] !== 'string') return false;
  body[field] = name;
  return true;
}

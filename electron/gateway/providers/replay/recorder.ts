// `--record DIR`: turns each exchange the HTTP tap saw into a cassette (inline text and timed events, or a blob beside it), with channel keys and redacted values hidden in any encoding before anything is written.
import { parseCassette } from '../../../../shared/cassette-reader.ts';
import {
  CassetteError,
  type CassetteBlob,
  type CassetteEvent,
  type CassetteHttpResponse,
  type CassetteProtocol,
  type HttpCassette,
} from '../../../../shared/cassette.ts';
import { scrubText, SecretScrubber, type HiddenSecret } from '../../../../shared/secret-scrub.ts';
import { rfc3339, type Clock } from '../../time.ts';
import type { CassetteDraft, CassetteRecorder, RecordedCall, RecordedExchange, SavedCassette } from '../types.ts';
import { MAX_INLINE_BODY_BYTES, MAX_RECORDED_BODY_BYTES } from './limits.ts';
import { normalRequest } from './normal.ts';
import { Redaction } from './redact.ts';
import type { CassetteStore } from './store.ts';

/** Content types kept as readable text in a cassette; anything else (audio, images) goes to a blob. */
export const TEXT_CONTENT = /json|text\/|event-stream|xml|x-ndjson/i;

/** Response headers never recorded: per request, per connection, or the gateway's own (a replay sets its own again). */
const UNRECORDED_HEADERS =
  /^(date|x-request-id|content-length|transfer-encoding|connection|keep-alive|set-cookie|access-control-[a-z-]+|vary|x-gatehouse-[a-z-]+|x-should-retry|x-content-type-options|content-security-policy|x-accel-buffering)$/;

export interface RecorderOptions {
  store: CassetteStore;
  clock: Clock;
  simulated: boolean;
  redact: readonly string[];
  /** The channel keys seen so far (see key-watch.ts). */
  keys: () => HiddenSecret[];
  /** A recording that could not be saved (never thrown at the caller, whose answer went out already). */
  report: (error: unknown) => void;
}

/** A blob being written while the answer still streams; every byte passes the key scrubber first. */
export interface BlobSink {
  write(bytes: Uint8Array): void;
  /** Ends the blob; resolves with its reference. */
  end(): Promise<CassetteBlob>;
}

export class StoreRecorder implements CassetteRecorder {
  readonly redact: readonly string[];
  readonly simulated: boolean;
  private readonly options: RecorderOptions;
  private readonly redaction: Redaction;
  constructor(options: RecorderOptions) {
    this.options = options;
    this.redact = options.redact;
    this.simulated = options.simulated;
    this.redaction = new Redaction(options.redact);
  }

  saveBlob(data: Uint8Array | AsyncIterable<Uint8Array>): Promise<CassetteBlob> {
    return this.options.store.saveBlob(scrubbed(data instanceof Uint8Array ? [data] : data, this.options.keys()));
  }

  /** A blob written as bytes arrive (a 100 MB answer never sits in memory), scrubbed of the keys and of `call`'s redacted values. */
  openBlob(call?: RecordedCall): BlobSink {
    const queue = new PushQueue<Uint8Array>();
    const extra = call ? Redaction.hidden(this.redaction.body(call.body).values) : [];
    const saved = this.options.store.saveBlob(scrubbed(queue, [...this.options.keys(), ...extra]));
    saved.catch(() => undefined); // awaited by end()
    let written = 0;
    return {
      write: (bytes) => {
        written += bytes.length;
        if (written > MAX_RECORDED_BODY_BYTES)
          queue.fail(
            new CassetteError(
              'recording',
              'response.body',
              `is over ${MAX_RECORDED_BODY_BYTES} bytes: the answer was passed on but not recorded`,
            ),
          );
        else queue.push(bytes);
      },
      end: () => {
        queue.close();
        return saved;
      },
    };
  }

  save(draft: CassetteDraft): Promise<SavedCassette> {
    const scrubbed = JSON.parse(scrubText(JSON.stringify(draft), this.options.keys())) as CassetteDraft;
    // The file name's words come from what is saved: a key in the prompt is not in the name either.
    return this.options.store.save(scrubbed, promptOf(scrubbed.request.body));
  }

  requestOf(call: RecordedCall): HttpCassette['request'] {
    return normalRequest(call);
  }

  async recordHttp(exchange: RecordedExchange): Promise<SavedCassette | undefined> {
    if (!exchange.relay && !this.simulated) return undefined;
    const request = normalRequest(exchange.call);
    const redacted = this.redaction.body(exchange.call.body);
    const hidden = [...this.options.keys(), ...Redaction.hidden(redacted.values)];
    const headers = Object.fromEntries(
      Object.entries(exchange.response.headers).filter(([name]) => !UNRECORDED_HEADERS.test(name) && !this.redaction.header(name)),
    );
    const writes = Symbol.asyncIterator in exchange.writes ? await collect(exchange.writes) : exchange.writes;
    const response: CassetteHttpResponse = {
      status: exchange.response.status,
      headers,
      ...bodyOf(exchange, writes, this.redaction),
      durationMs: exchange.response.durationMs,
    };
    const draft: CassetteDraft = {
      kind: 'http',
      recording: {
        recordedAt: rfc3339(this.options.clock.now()),
        mode: exchange.relay ? 'relay' : 'simulate',
        ...(exchange.relay && { channel: exchange.relay.channel }),
        ...(exchange.relay?.upstreamModel !== undefined && { upstreamModel: exchange.relay.upstreamModel }),
        protocol: exchange.call.protocol as CassetteProtocol,
      },
      request: { ...request, ...(exchange.call.body !== undefined && { body: redacted.body }) },
      response,
      ...(exchange.usage && { usage: exchange.usage }),
    };
    const text = scrubText(JSON.stringify(draft), hidden);
    // What is saved must read back whole: a scrub that broke the JSON (it cannot, but a cassette is never written half) is refused.
    const checked = JSON.parse(text) as CassetteDraft;
    parseCassette(JSON.stringify({ format: 1, sequence: 1, ...checked }), 'recording');
    // Named from the body as saved (redacted and scrubbed), so no hidden value shows in the file name.
    return this.options.store.save(checked, promptOf(checked.request.body));
  }
}

/** The body of the response: timed events or whole text inline, or the blob the tap wrote (with the writes' timing). */
function bodyOf(
  exchange: RecordedExchange,
  writes: readonly { atMs: number; bytes: Uint8Array }[],
  redaction: Redaction,
): Pick<CassetteHttpResponse, 'body' | 'events' | 'chunks'> {
  if (exchange.spilled) return { body: { blob: exchange.spilled.blob }, chunks: exchange.spilled.chunks };
  const contentType = exchange.response.headers['content-type'] ?? '';
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const total = writes.reduce((sum, write) => sum + write.bytes.length, 0);
  if (!TEXT_CONTENT.test(contentType) || total > MAX_INLINE_BODY_BYTES)
    throw new CassetteError('recording', 'response.body', 'a binary or big body must be spilled to a blob by the tap');
  if (/event-stream/i.test(contentType)) {
    const events = sseEvents(writes);
    if (events) return { events };
  } else if (exchange.call.stream) {
    try {
      return { events: writes.map((write) => ({ atMs: write.atMs, data: decoder.decode(write.bytes) })) };
    } catch {
      // A write cut inside a UTF-8 character: kept whole as one piece of text instead.
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(writes.map((write) => write.bytes)));
  return { body: { text: redactedJson(text, redaction) } };
}

/**
 * An event stream cut into its events (each with the blank line that ends it), each at the offset of the write that completed
 * it: writes may carry several events or part of one. Undefined for bytes that are not UTF-8.
 */
function sseEvents(writes: readonly { atMs: number; bytes: Uint8Array }[]): CassetteEvent[] | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const events: CassetteEvent[] = [];
  let pending = '';
  try {
    for (const write of writes) {
      pending += decoder.decode(write.bytes, { stream: true });
      for (let end = eventEnd(pending); end > 0; end = eventEnd(pending)) {
        events.push({ atMs: write.atMs, data: pending.slice(0, end) });
        pending = pending.slice(end);
      }
    }
    pending += decoder.decode();
  } catch {
    return undefined;
  }
  if (pending !== '') events.push({ atMs: writes.at(-1)?.atMs ?? 0, data: pending });
  return events;
}

/** Where the first event of `text` ends (after its blank line), or 0 when no event is complete yet. */
function eventEnd(text: string): number {
  const blank = /\r\n\r\n|\n\n|\r\r/.exec(text);
  return blank ? blank.index + blank[0].length : 0;
}

/** A JSON answer with the configured paths redacted (re-serialised only when one applied). */
function redactedJson(text: string, redaction: Redaction): string {
  if (!text.trimStart().startsWith('{')) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    const { body } = redaction.body(parsed);
    return body === parsed ? text : JSON.stringify(body);
  } catch {
    return text;
  }
}

/** The words a cassette's name shows: the last user text of a chat, else the input or prompt. */
function promptOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  const text = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(text).find((item) => item !== undefined);
    if (typeof value === 'object' && value !== null) {
      const item = value as Record<string, unknown>;
      return text(item['text'] ?? item['content'] ?? item['parts']);
    }
    return undefined;
  };
  const turns = fields['messages'] ?? fields['contents'];
  if (Array.isArray(turns)) {
    const user = turns.findLast((turn) => typeof turn === 'object' && turn !== null && (turn as { role?: unknown }).role === 'user');
    return text(user);
  }
  // A portrait registration is named by its URL.
  return text(fields['input'] ?? fields['prompt'] ?? fields['url']);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* scrubbed(data: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, hidden: HiddenSecret[]): AsyncGenerator<Uint8Array> {
  const live = hidden.filter(({ secret }) => secret !== '');
  const scrubber = live.length > 0 ? new SecretScrubber(live) : null;
  for await (const chunk of data) {
    const passed = scrubber ? scrubber.pass(chunk) : chunk;
    if (passed.length > 0) yield passed;
  }
  const rest = scrubber?.end();
  if (rest && rest.length > 0) yield rest;
}

/** An async iterable fed by push() and ended by close(). */
class PushQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private closed = false;
  private failed: Error | undefined;
  private wake: (() => void) | null = null;
  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }
  close(): void {
    this.closed = true;
    this.wake?.();
  }
  /** Ends the iteration with `error` (what was pushed and not yet read is dropped). */
  fail(error: Error): void {
    this.failed ??= error;
    this.items.length = 0;
    this.wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.failed) throw this.failed;
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

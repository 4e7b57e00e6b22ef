// Writes streamed answers (SSE frames or a JSON array stream) frame by frame as they are produced, or gathered when all at hand, with backpressure and the stream faults `disconnect` and `malformed`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { GatewayError } from '../errors.ts';
import { Hold, isAtHand, type AtHand } from '../protocols/at-hand.ts';
import { dataOnlyFrame, EventRun, sseFrame, WrittenBytes, type NamedEvent, type SseEvent } from '../protocols/named-event.ts';
import { streamFaultOf } from './faults.ts';
import { endGivenAway } from './response-tap.ts';

/** Frames written before a `disconnect` or `malformed` fault strikes (fewer when the stream is shorter: never its last frame). */
export const FRAMES_BEFORE_FAULT = 3;

/**
 * Events of a stream: a producer that yields them as the answer is made, or events all at hand (a finished list, or a
 * synchronous producer, with the Holds it must be waited on at), which are written in a few large writes.
 */
export type EventSource<T> = AtHand<T> | AsyncIterable<T>;

/** Characters of frames at hand gathered into one write (a longer answer goes out in several, each waiting for its drain). */
export const AT_HAND_WRITE_CHARS = 64 * 1024;

/** What a stream does when its producer fails after the headers went out. */
export interface StreamFailure {
  /** The error frame the caller's protocol sends before the stream ends (OpenAI, Anthropic, Responses); absent: the stream just ends. */
  errorEvent?: (error: GatewayError) => NamedEvent;
  /** Where an unexpected failure (not a GatewayError) is reported: the gateway's `error` event. */
  report?: (error: unknown) => void;
}

/**
 * Streams `events` as server-sent events: `event: <name>` when named, then `data: <json>` (or the raw
 * `[DONE]` marker). Return its promise from the route handler: it hijacks the reply, sends status 200 with
 * `content-type: text/event-stream`, `cache-control: no-cache` and `connection: keep-alive`, writes each
 * event as it is produced (waiting for `drain` when the client reads slowly; events at hand gathered into few writes,
 * see `writeAtHand`), applies the `disconnect` / `malformed` faults after FRAMES_BEFORE_FAULT frames, and stops
 * pulling events when the client goes away.
 * Pacing is the producer's business. A producer that throws ends the stream (after `failure.errorEvent`).
 */
export async function writeSse(request: FastifyRequest, reply: FastifyReply, events: EventSource<SseEvent>, failure: StreamFailure = {}) {
  await writeFrames(request, reply, SSE_TYPE, events, sseFrameOrBytes, ['', ''], frameFailureOf(failure));
}

/**
 * Whether a stream at hand is written whole, in few writes (no stream fault counts its frames one by one): the condition
 * `writeSse` writes by, which a route passes to `streamEvents` so a kept answer's stream goes as the bytes rendered once.
 */
export function writesWhole(request: FastifyRequest): boolean {
  return streamFaultOf(request) === undefined;
}

/** An event's frame, or the bytes of frames written already (a kept answer's stream), sent as they are. */
const sseFrameOrBytes = (event: SseEvent): string | Buffer => (event instanceof WrittenBytes ? event.bytes : sseFrame(event));

/**
 * Streams `items` as data-only server-sent events, `data: <json>` each (Gemini's stream with `alt=sse`; a run at hand as
 * its frames, frames written as bytes as they are), as `writeSse` does.
 */
export async function writeSseData(request: FastifyRequest, reply: FastifyReply, items: EventSource<unknown>, failure: StreamFailure = {}) {
  const frame = (item: unknown) => (item instanceof WrittenBytes ? item.bytes : dataOnlyFrame(item));
  await writeFrames(request, reply, SSE_TYPE, items, frame, ['', ''], frameFailureOf(failure));
}

const SSE_TYPE = 'text/event-stream; charset=utf-8';
/** The content type of JSON: what Fastify gives the JSON it serializes, and a route the JSON text it wrote itself. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A stream's failure as frames: the protocol's error event framed as SSE. */
function frameFailureOf({ errorEvent, report }: StreamFailure): FrameFailure {
  return {
    ...(report && { report }),
    ...(errorEvent && { errorFrame: (error: GatewayError) => sseFrame(errorEvent(error)) }),
  };
}

/** An event's SSE frame (made in protocols/named-event.ts), as the relay's mid-stream error frame is written too. */
export { sseFrame };

/** What stands between two elements of a streamed JSON array (as Gemini writes it). */
const ELEMENT_SEPARATOR = ',\r\n';

/**
 * Streams `items` as one JSON array written element by element (Gemini's stream without `alt=sse`; a run of elements at
 * hand in one pass); a failing producer ends it unclosed.
 */
export async function writeJsonArray(
  request: FastifyRequest,
  reply: FastifyReply,
  items: EventSource<unknown>,
  failure: StreamFailure = {},
) {
  let index = 0;
  await writeFrames(
    request,
    reply,
    JSON_TYPE,
    items,
    (item) => {
      if (!(item instanceof EventRun)) return `${index++ === 0 ? '' : ELEMENT_SEPARATOR}${JSON.stringify(item)}`;
      // A run's elements, each after the separator but the array's first.
      const elements = item.framed(ELEMENT_SEPARATOR, '');
      const first = index === 0;
      index += item.size;
      return first ? elements.slice(ELEMENT_SEPARATOR.length) : elements;
    },
    ['[', ']'],
    failure.report ? { report: failure.report } : {},
  );
}

/**
 * `source` with each element turned into its frame, pulled one at a time (the Holds of a source at hand waited for, a
 * run of events written event by event).
 */
async function* mapFrames<T>(source: EventSource<T>, frame: (item: T) => string | Buffer): AsyncGenerator<string | Buffer> {
  for await (const item of source) {
    if (item instanceof EventRun) for (const event of item.events()) yield frame(event as T);
    else if (!(item instanceof Hold)) yield frame(item);
    else {
      // Frames go out as they are made here, so what follows the Hold goes out next.
      item.sent?.();
      if (item.done) await item.done;
    }
  }
}

interface FrameFailure {
  errorFrame?: (error: GatewayError) => string;
  report?: (error: unknown) => void;
}

async function writeFrames<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  source: EventSource<T>,
  frame: (item: T) => string | Buffer,
  ends: [string, string],
  failure: FrameFailure,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  const fault = streamFaultOf(request);
  // A fault counts frames one by one: only the frame-by-frame writer strikes it.
  const atHand = writesWhole(request) && isAtHand(source);
  // The head and the frames made in this tick leave in one write; a frame made later goes out in its own tick.
  if (!atHand) holdForTick(raw);
  // Headers set before the hijack (CORS, for one) go out too.
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': contentType,
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // A stream at hand sends its head with its first write.
  if (!atHand) raw.flushHeaders();
  const watch = { gone: false };
  raw.once('close', () => (watch.gone = true));
  if (atHand) await writeAtHand(raw, watch, source as AtHand<T>, frame, ends, failure);
  else await writeEach(raw, watch, fault, mapFrames(source, frame), ends, failure);
}

/**
 * Writes the frames of a source at hand gathered into as few writes as AT_HAND_WRITE_CHARS allows (a short answer, head
 * and all, in one): a Hold is waited for before anything made after it goes out; a full socket buffer is waited on
 * between writes; a client that left stops the pulling (the producers' cleanup runs).
 */
async function writeAtHand<T>(
  raw: ServerResponse,
  watch: { gone: boolean },
  source: AtHand<T>,
  frame: (item: T) => string | Buffer,
  [open, close]: [string, string],
  failure: FrameFailure,
): Promise<void> {
  const items = source[Symbol.iterator]();
  let pending: string | Buffer = open;
  /** The `sent` of the Holds whose following frames are in `pending`, told just before it goes out. */
  const sent: (() => void)[] = [];
  const tell = () => {
    for (const told of sent.splice(0)) told();
  };
  let pulling = false;
  let exhausted = false;
  /** The last frames written as bytes (a kept stream's): which render they are is told with the storage given away. */
  let bytesItem: WrittenBytes | undefined;
  try {
    for (;;) {
      pulling = true;
      const next = items.next();
      pulling = false;
      if (next.done) {
        exhausted = true;
        break;
      }
      const item = next.value;
      if (item instanceof Hold) {
        if (item.sent) sent.push(item.sent);
        if (!item.done) continue;
        // What is made before the wait (a charge's commit, which a whole JSON answer waits for too) leaves with what follows it.
        await item.done;
      } else {
        if (item instanceof WrittenBytes) bytesItem = item;
        pending = joined(pending, frame(item));
        // Bytes (a kept stream's) are counted as bytes, at least their characters: such a write is never larger.
        if (pending.length < AT_HAND_WRITE_CHARS) continue;
        tell();
        await writeFrame(raw, pending);
        pending = '';
      }
      if (watch.gone) return;
    }
    tell();
    const last = joined(pending, close);
    // Bytes here are a kept stream's, or the writer's own join of them: nothing reads them once written. They are still
    // that render when they are a view of its storage (its spans joined), not a join with anything else.
    if (watch.gone) return;
    if (typeof last === 'string') raw.end(last);
    else endGivenAway(raw, last, last.buffer === bytesItem?.bytes.buffer ? bytesItem.kept : undefined);
  } catch (error) {
    // A producer that threw is done; a Hold that failed leaves its producers to be closed below.
    exhausted = pulling;
    pending = joined(pending, failureFrame(error, watch, failure));
    tell();
    if (!watch.gone) raw.end(pending);
  } finally {
    if (!exhausted) items.return?.();
  }
}

/**
 * `first` then `second` in one write: a string when both are, else bytes (a view over both when `second`'s bytes follow
 * `first`'s in the same storage, as the spans of a kept stream do).
 */
function joined(first: string | Buffer, second: string | Buffer): string | Buffer {
  if (typeof first === 'string' && typeof second === 'string') return first + second;
  if (second.length === 0) return first;
  if (first.length === 0) return second;
  if (typeof first !== 'string' && typeof second !== 'string') {
    if (first.buffer === second.buffer && first.byteOffset + first.length === second.byteOffset)
      return Buffer.from(first.buffer, first.byteOffset, first.length + second.length);
    return Buffer.concat([first, second]);
  }
  return Buffer.concat([typeof first === 'string' ? Buffer.from(first) : first, typeof second === 'string' ? Buffer.from(second) : second]);
}

/**
 * What a stream whose producer threw ends with: the protocol's error frame (a GatewayError as it is, anything else as a
 * generic internal error, reported), or nothing when the protocol has none or the client is gone.
 */
function failureFrame(error: unknown, watch: { gone: boolean }, failure: FrameFailure): string {
  const gatewayError = error instanceof GatewayError ? error : undefined;
  if (!gatewayError) failure.report?.(error);
  if (watch.gone || !failure.errorFrame) return '';
  return failure.errorFrame(gatewayError ?? new GatewayError('internal', 'The stream failed.'));
}

/** Writes frames one by one as the producer makes them (paced streams, relayed translations, and any stream a fault is set on). */
async function writeEach(
  raw: ServerResponse,
  watch: { gone: boolean },
  fault: 'disconnect' | 'malformed' | undefined,
  frames: AsyncIterator<string | Buffer>,
  [open, close]: [string, string],
  failure: FrameFailure,
): Promise<void> {
  let finished = false;
  try {
    if (open) await writeFrame(raw, open);
    // One frame of lookahead only while a fault is set: it must strike before the last frame, never at the end.
    let next = await frames.next();
    for (let index = 0; !next.done && !watch.gone; index++) {
      const following = fault ? await frames.next() : undefined;
      if (fault && (index === FRAMES_BEFORE_FAULT || following?.done)) {
        await strike(raw, fault);
        return;
      }
      await writeFrame(raw, next.value);
      next = following ?? (watch.gone ? next : await frames.next());
    }
    finished = next.done === true;
    if (!watch.gone) raw.end(close);
  } catch (error) {
    finished = true;
    if (!watch.gone) raw.end(failureFrame(error, watch, failure));
  } finally {
    // The client left or a fault struck: the producer stops (and its own cleanup runs).
    if (!finished) await frames.return?.(undefined);
  }
}

/** Breaks the stream as asked: a half-written frame (`malformed`), or the connection cut after what was written (`disconnect`). */
async function strike(raw: ServerResponse, fault: 'disconnect' | 'malformed'): Promise<void> {
  if (fault === 'malformed') {
    raw.end('data: {"malformed": tru\n\n');
    return;
  }
  // Let the frames already written reach the client, then cut the connection mid-stream.
  await new Promise((resolve) => raw.write('', resolve));
  raw.destroy();
}

/**
 * Holds the socket writes of `raw` until the current tick's work is done, so a stream's head leaves in one write with
 * the frames made in the same tick instead of a write of its own (Node holds the body's writes so already, not the head's
 * flush); a head whose first frame comes later still leaves at the end of this tick.
 */
export function holdForTick(raw: ServerResponse): void {
  const socket = raw.socket;
  if (!socket || socket.writableCorked > 0 || socket.destroyed) return;
  socket.cork();
  process.nextTick(() => socket.uncork());
}

/**
 * Writes `frame`; when the answer's buffer is full, waits until what was written has gone to the socket (or the client
 * goes away). The wait is the callback of an empty write behind it, not the answer's 'drain': Node 24.22 buffers the
 * writes of a tick in the answer itself and sends 'drain' only when the socket had asked for one, so a full answer whose
 * bytes then fit in the socket's buffer never got it, and a long stream to a client reading in the same process hung.
 */
export function writeFrame(raw: ServerResponse, frame: string | Uint8Array): Promise<void> {
  if (raw.write(frame)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      raw.off('close', done);
      resolve();
    };
    // Writes are sent in order: this callback runs once every byte before it went out, or with the error that ended them.
    raw.write('', done);
    raw.once('close', done);
  });
}

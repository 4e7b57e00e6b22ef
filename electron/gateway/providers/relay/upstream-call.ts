// One upstream request as undici's dispatcher runs it, through a handler of its own: the head settles a promise and the body's chunks are read straight off the handler, the connection paused while they wait (no request handler, async resource, Readable or abort emitter per call).
import type { Dispatcher } from 'undici';
import type { UpstreamTimer } from '../upstream-timer.ts';
import { READS_DONE, UpstreamReads } from './upstream-reads.ts';

/** Most bytes of an answer held unread before the upstream connection is paused (a Node stream's default high-water mark). */
export const UPSTREAM_HELD_BYTES = 64 * 1024;

const NOTHING = new Uint8Array(0);

/** A request body sent as a stream (a multipart form's `Readable`). */
interface SentStream {
  on(event: 'error', listener: () => void): unknown;
  destroy(error?: Error): void;
}

/** The error listener of a request body destroyed by the request's failure (the request reports that failure). */
function ignore(): void {}

/** The final head of an upstream answer (informational ones pass unseen). */
export interface UpstreamHead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One upstream request's handler and its answer's body. `head` settles with the final head, or rejects with why none came
 * (the connection failed, or `abort` was called). The body (this, as an async iterator) yields the chunks as they came,
 * each wait for the upstream within the limits of the timer it is `watchedBy` (a read that outlasts one rejects with its
 * UpstreamTimeout); an upstream that breaks off rejects the read; `return()` aborts a request not read to its end.
 */
export class UpstreamCall extends UpstreamReads implements Dispatcher.DispatchHandler {
  readonly head: Promise<UpstreamHead>;
  private settleHead!: (head: UpstreamHead) => void;
  private failHead!: (error: unknown) => void;
  private headed = false;
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the request was stopped (set once). */
  private reason: Error | undefined;
  /** A request body that is a stream, destroyed when the request fails (as undici's own request handler does). */
  private sent: SentStream | undefined;
  private readonly held: Uint8Array[] = [];
  private heldCount = 0;
  private paused = false;
  /** A hand-over of held chunks to a waiting read is queued (see `deliver`). */
  private flushing = false;
  /** `deliver`, as queued (made once, for the first read that waits, into a local first: see UpstreamReads's `expire`). */
  private flush: (() => void) | undefined;

  constructor(sent?: unknown) {
    super(undefined);
    this.head = new Promise((resolve, reject) => {
      this.settleHead = resolve;
      this.failHead = reject;
    });
    if (sent !== null && typeof sent === 'object' && typeof (sent as { destroy?: unknown }).destroy === 'function') {
      this.sent = sent as SentStream;
    }
  }

  /** Bytes received and not yet read (at most about UPSTREAM_HELD_BYTES and one more chunk). */
  get heldBytes(): number {
    return this.heldCount;
  }

  /** The clocks the body's reads wait within (set before the head is awaited). */
  watchedBy(timer: UpstreamTimer): void {
    this.waits = timer;
  }

  /**
   * Stops the request with `reason` (the first call only). A request not started yet (undici still connecting) fails its
   * head at once, so a time limit or a caller's leaving does not wait for undici's own connect timeout; the request is
   * stopped when it starts.
   */
  abort(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    if (this.controller !== undefined) this.controller.abort(reason);
    else if (!this.headed) {
      this.headed = true;
      this.failHead(reason);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.reason !== undefined) {
      controller.abort(this.reason);
      return;
    }
    this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: UpstreamHead['headers']): void {
    // An informational head (100 Continue, 103 Early Hints) is not the answer.
    if (status < 200) return;
    this.headed = true;
    this.settleHead({ status, headers });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.failure !== undefined) return;
    this.held.push(chunk);
    this.heldCount += chunk.length;
    // A waiting read gets what came by the end of this parse, in one piece (an upstream's burst of events is one chunk).
    if (this.waiting && !this.flushing) {
      this.flushing = true;
      let flush = this.flush;
      if (flush === undefined) {
        flush = () => this.deliver();
        this.flush = flush;
      }
      queueMicrotask(flush);
    }
    if (this.heldCount >= UPSTREAM_HELD_BYTES && !this.paused) {
      this.paused = true;
      controller.pause();
    }
  }

  onResponseEnd(): void {
    this.ended = true;
    // A read waiting for data that came in this parse gets it first (the next read then the end).
    if (this.held.length === 0) this.answer();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.sent !== undefined) {
      const sent = this.sent;
      this.sent = undefined;
      // A listener first (as undici's own handler does): undici took its own off, and a stream destroyed with an error and
      // none would throw it out of the process (a form to an upstream that refused the connection).
      sent.on('error', ignore);
      sent.destroy(error);
    }
    if (!this.headed) {
      this.headed = true;
      this.failHead(error);
      return;
    }
    this.fail(error);
  }

  /** The reader gave up: a request not read to its end is aborted. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.held.length = 0;
    this.heldCount = 0;
    if (!this.ended && this.failure === undefined) this.abort(new Error('the relay stopped reading'));
    return Promise.resolve(READS_DONE);
  }

  /**
   * The rest of the body in one piece once the upstream sent its whole answer (empty when nothing is left), taken; undefined
   * while it has not ended, or once the body failed (RelayedBody's `atOnce`).
   */
  wholeAtHand(): Uint8Array | undefined {
    if (!this.ended || this.failure !== undefined) return undefined;
    return this.held.length > 0 ? this.take() : NOTHING;
  }

  protected atHand(): Uint8Array | null {
    return this.held.length > 0 ? this.take() : null;
  }

  /** Everything held, in one piece (as a Node stream's `read()` gives it); a paused connection is resumed. */
  private take(): Uint8Array {
    const held = this.held;
    const chunk = held.length === 1 ? held[0]! : Buffer.concat(held, this.heldCount);
    held.length = 0;
    this.heldCount = 0;
    if (this.paused) {
      this.paused = false;
      this.controller?.resume();
    }
    return chunk;
  }

  /**
   * Hands what the last parse brought to the read waiting for it (queued once per parse by `onResponseData`). The read
   * stops waiting before `take` resumes the connection: undici parses on inside `resume`, and the end or more data it
   * brings there must find no read waiting (they are the next read's), or the end would answer this read in its place.
   */
  private deliver(): void {
    this.flushing = false;
    if (this.held.length === 0) return;
    const resolve = this.stopWaiting();
    if (resolve !== undefined) resolve({ done: false, value: this.take() });
  }

  /** The first error the body met (see UpstreamReads): what was held unread is dropped. */
  protected override fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.held.length = 0;
    this.heldCount = 0;
    super.fail(error);
  }
}

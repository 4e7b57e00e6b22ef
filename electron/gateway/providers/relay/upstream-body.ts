// An upstream answer's body read straight off its stream, chunk by chunk within the channel's time limits: no async generator, end-of-stream watcher or timer wrapper per call.
import type { Readable } from 'node:stream';
import type { UpstreamTimeout, UpstreamTimer } from '../upstream-timer.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The chunks of `stream` (each `read()` takes all that is buffered, as Node's own async iterator of a stream does), every
 * wait for the upstream within `timer`'s limits: a read that outlasts one rejects with its UpstreamTimeout. A stream that
 * fails, or closes before its end, rejects the read (with the UpstreamTimeout when a limit ran out); `return()` destroys a
 * stream not read to its end (undici then aborts the request).
 */
export class UpstreamBody implements AsyncIterableIterator<Uint8Array> {
  private readonly stream: Readable;
  private readonly timer: UpstreamTimer;
  /** What the timer calls when a limit runs out during a wait (made once, not per wait). */
  private readonly expire: (error: UpstreamTimeout) => void;
  private ended = false;
  private failure: unknown;
  /** The waiting read's callbacks (undefined when no read waits). */
  private resolve: ((step: IteratorResult<Uint8Array>) => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;

  constructor(stream: Readable, timer: UpstreamTimer) {
    this.stream = stream;
    this.timer = timer;
    // Made into a local first: a function written straight into a property is made in the old generation, and would keep
    // this call's objects alive past every young-generation collection (server/write-tap.ts `watchHead`).
    const expire = (error: UpstreamTimeout) => this.fail(error);
    this.expire = expire;
    // `on`, not `once`, for 'end' and 'close' too: each comes once, and `once` wraps its listener in one more closure.
    stream.on('readable', () => {
      if (this.resolve === undefined) return;
      const chunk = stream.read() as Uint8Array | null;
      // Nothing yet (or the end, which 'end' reports next): keep waiting.
      if (chunk !== null) this.answer({ done: false, value: chunk });
    });
    stream.on('end', () => {
      this.ended = true;
      if (this.resolve !== undefined) this.answer(DONE);
    });
    stream.on('error', (error: unknown) => this.fail(error));
    stream.on('close', () => {
      if (!this.ended) this.fail(new Error('the upstream body closed before its end'));
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const chunk = this.stream.destroyed ? null : (this.stream.read() as Uint8Array | null);
    if (chunk !== null) return Promise.resolve({ done: false, value: chunk });
    if (this.ended) return Promise.resolve(DONE);
    const expired = this.timer.waitFor(this.expire);
    if (expired) return Promise.reject(expired);
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.ended && !this.stream.destroyed) this.stream.destroy();
    return Promise.resolve(DONE);
  }

  /** Ends the wait of the read waiting now with `step`. */
  private answer(step: IteratorResult<Uint8Array>): void {
    const resolve = this.resolve!;
    this.resolve = this.reject = undefined;
    this.timer.waited();
    resolve(step);
  }

  /** The first error the stream met (the UpstreamTimeout when a limit ran out, whatever the stream says); a waiting read gets it. */
  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = this.timer.expired ?? error;
    const reject = this.reject;
    if (reject === undefined) return;
    this.resolve = this.reject = undefined;
    this.timer.waited();
    reject(this.failure);
  }
}

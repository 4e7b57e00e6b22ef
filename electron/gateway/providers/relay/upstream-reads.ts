// The reads of an upstream answer's body as an async iterator: one read at a time waits for the upstream within the channel's time limits, and is answered once (a chunk, the end, or the first error).
import type { UpstreamTimeout, UpstreamTimer } from '../upstream-timer.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * What the body classes share (upstream-call.ts's handler, upstream-body.ts's stream reader): `next` takes what is at hand
 * (`atHand`), else the end, else waits within the timer's limits (a read that outlasts one rejects with its UpstreamTimeout).
 * A subclass answers the waiting read with `answer`, or with `stopWaiting` first when making its chunk can re-enter it.
 */
export abstract class UpstreamReads implements AsyncIterableIterator<Uint8Array> {
  /** Set once the upstream sent its whole answer (some of it may still be at hand, unread). */
  ended = false;
  /** The first error the body met (the UpstreamTimeout when a limit ran out), which every later read rejects with. */
  protected failure: unknown;
  /** The clocks a read waits within (none: a read waits as long as it takes). */
  protected waits: UpstreamTimer | undefined;
  /** What the timer calls when a limit runs out during a wait, made for the first wait (an answer at hand whole never
   * waits). Made into a local first: a function written straight into a property is made in the old generation, and would
   * keep this call's objects alive past every young-generation collection (server/write-tap.ts `watchHead`). */
  private expire: ((error: UpstreamTimeout) => void) | undefined;
  /** The waiting read's callbacks (undefined when no read waits). */
  private resolve: ((step: IteratorResult<Uint8Array>) => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;

  constructor(waits: UpstreamTimer | undefined) {
    this.waits = waits;
  }

  /** The bytes at hand, taken (null when none are). */
  protected abstract atHand(): Uint8Array | null;

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const chunk = this.atHand();
    if (chunk !== null) return Promise.resolve({ done: false, value: chunk });
    if (this.ended) return Promise.resolve(DONE);
    if (this.waits !== undefined) {
      let expire = this.expire;
      if (expire === undefined) {
        expire = (error: UpstreamTimeout) => this.fail(error);
        this.expire = expire;
      }
      const expired = this.waits.waitFor(expire);
      if (expired) return Promise.reject(expired);
    }
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  abstract return(): Promise<IteratorResult<Uint8Array>>;

  /** True while a read waits. */
  protected get waiting(): boolean {
    return this.resolve !== undefined;
  }

  /** Ends the wait of the read waiting now (if one does) with `chunk`, or the end when none is given. */
  protected answer(chunk?: Uint8Array): void {
    this.stopWaiting()?.(chunk === undefined ? DONE : { done: false, value: chunk });
  }

  /** The waiting read's resolve, taken off this (nothing after it can answer that read twice); undefined when no read waits. */
  protected stopWaiting(): ((step: IteratorResult<Uint8Array>) => void) | undefined {
    const resolve = this.resolve;
    if (resolve === undefined) return undefined;
    this.resolve = this.reject = undefined;
    this.waits?.waited();
    return resolve;
  }

  /** The first error the body met (the UpstreamTimeout when a limit ran out, whatever else says); a waiting read gets it. */
  protected fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = this.waits?.expired ?? error;
    const reject = this.reject;
    if (reject === undefined) return;
    this.resolve = this.reject = undefined;
    this.waits?.waited();
    reject(this.failure);
  }
}

/** The end of the reads (what `return()` answers). */
export const READS_DONE = DONE;

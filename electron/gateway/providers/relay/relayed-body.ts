// A successful upstream answer as the caller gets it, chunk by chunk: the channel's key scrubbed, usage read and caps kept by the tap, the upstream stopped and the usage settled once it ends.
import type { SecretScrubber } from '../../../../shared/secret-scrub.ts';
import { GatewayError } from '../../errors.ts';
import type { RelayedUsage } from '../types.ts';
import { UpstreamTimeout } from '../upstream-timer.ts';
import type { UsageTap } from './usage-tap.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });
/** What the tick after a body's end runs (a function with an argument: no closure per call). */
const endLater = (body: RelayedBody) => body.endNow();
const NO_BYTES = new Uint8Array(0);

/** A source that can give the rest of its body at once when the upstream already sent all of it (upstream-call.ts). */
export interface WholeAtHand {
  /** The rest of the body in one piece (empty when nothing is left), taken; undefined while the upstream has not ended. */
  wholeAtHand?(): Uint8Array | undefined;
}

/** Where the body is: passing the upstream's chunks, then the scrubber's held tail, then what the tap held, then ended. */
type Phase = 'reading' | 'ending' | 'rest' | 'done';

/**
 * The body of a relayed answer: a plain iterator, not a generator (one promise per chunk). Each chunk of `source` is scrubbed
 * of the key (the scrubber's held tail passes at the end), then passed through `tap`; past a cap the upstream is closed and
 * the body ends with the tap's failure. A break of the upstream is a GatewayError (an UpstreamTimeout as it is). Once the
 * body ended, was given up (`return`) or broke, `upstream.stop()` is called and `usage` settles with what passed.
 */
export class RelayedBody implements AsyncIterableIterator<Uint8Array> {
  /** Settles once the body ended: the usage read, with the bytes passed. */
  readonly usage: Promise<RelayedUsage>;
  private readonly source: (AsyncIterator<Uint8Array> & WholeAtHand) | undefined;
  private readonly scrubber: SecretScrubber | null;
  private readonly tap: UsageTap;
  /** The upstream request, stopped once the body ended (the Fetched itself: no closure per call). */
  private readonly upstream: { stop(): void };
  private settle!: (usage: RelayedUsage) => void;
  private phase: Phase = 'reading';
  private answerBytes = 0;
  private finished = false;
  private stopped = false;
  /** The tap's end is left to read after the caller got the body's end (see `passRest`). */
  private endLeft = false;
  /** What `atOnce` passed before a cap cut the answer: the next read's. */
  private pending: Uint8Array | undefined;

  constructor(source: AsyncIterable<Uint8Array> | null, scrubber: SecretScrubber | null, tap: UsageTap, upstream: { stop(): void }) {
    this.source = source?.[Symbol.asyncIterator]() as (AsyncIterator<Uint8Array> & WholeAtHand) | undefined;
    this.scrubber = scrubber;
    this.tap = tap;
    this.upstream = upstream;
    this.usage = new Promise((resolve) => (this.settle = resolve));
    if (!this.source) this.phase = 'done';
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    try {
      // What `atOnce` passed before a cap cut the answer goes first (the cap's error follows).
      const pending = this.pending;
      if (pending !== undefined) {
        this.pending = undefined;
        return { done: false, value: pending };
      }
      while (this.phase === 'reading') {
        let step: IteratorResult<Uint8Array>;
        try {
          step = await this.source!.next();
        } catch (error) {
          this.phase = 'done';
          this.finish();
          throw error instanceof UpstreamTimeout
            ? error
            : new GatewayError('upstream_failed', 'The upstream broke off the answer mid-way.');
        }
        if (step.done) {
          this.phase = 'ending';
          break;
        }
        const passed = this.passChunk(step.value);
        if (passed.length > 0) return { done: false, value: passed };
      }
      // The scrubber's held tail, then what the tap held (a whole JSON answer renamed), each as a chunk of its own.
      if (this.phase === 'ending') {
        this.phase = 'rest';
        const passed = this.passTail();
        if (passed.length > 0) return { done: false, value: passed };
      }
      // The tap's end (an answer whose end passes nothing returns the end without settling: see `passRest`).
      if (this.phase === 'rest') {
        const rest = this.passRest();
        return rest.length > 0 ? { done: false, value: rest } : DONE;
      }
      this.finish();
      return DONE;
    } catch (error) {
      // Whatever broke (the upstream, a cap, or the scrub or tap themselves), the upstream is closed and the usage settles.
      if (this.phase === 'reading') void this.source?.return?.();
      this.phase = 'done';
      this.finish();
      throw error;
    }
  }

  /**
   * The rest of the answer in one piece, when the upstream has sent all of it already (with our handler a small answer's
   * head, body and end arrive in one parse): scrubbed, tapped and capped as `next` passes it, in this turn, without a
   * promise per step. The body is then at its end (its usage settled, or read at `return()` or the tick after, as `next`
   * leaves a JSON answer passed as it came).
   * Undefined when the upstream has not ended, its source cannot tell, or a cap cut the answer (what passed before the cap
   * is then the next read's, and the cap's error the one after): read on with `next`. Throws what `next` would throw
   * when the scrub or the tap breaks.
   */
  atOnce(): Uint8Array | undefined {
    if (this.phase !== 'reading') return undefined;
    try {
      const whole = this.source!.wholeAtHand?.();
      if (whole === undefined) return undefined;
      this.phase = 'ending';
      const passed = whole.length > 0 ? this.passChunk(whole) : NO_BYTES;
      this.phase = 'rest';
      const tail = this.passTail();
      if (this.tap.failure) {
        const cut = joined(passed, tail);
        if (cut.length > 0) this.pending = cut;
        return undefined;
      }
      const rest = this.passRest();
      // An end read here (a renamed answer, a stream's last event) settles now: the caller writes the answer before
      // anything it awaits. An end left for later settles at `return()`, or the tick after at the latest.
      if (!this.endLeft) this.finish();
      return joined(joined(passed, tail), rest);
    } catch (error) {
      // The source, the scrub or the tap broke: as from `next`, the usage settles and the error is thrown.
      this.phase = 'done';
      this.finish();
      throw error;
    }
  }

  /** One chunk of the upstream's body as it passes on: scrubbed, then through the tap; past a cap the upstream is closed. */
  private passChunk(chunk: Uint8Array): Uint8Array {
    const scrubbed = this.scrubber ? this.scrubber.pass(chunk) : chunk;
    if (scrubbed.length === 0) return NO_BYTES;
    const tap = this.tap;
    const passed = tap.pass(scrubbed);
    this.answerBytes += passed.length;
    // Past a cap (one event or the whole stream too long): the upstream is closed and the caller's stream ends with the error.
    if (tap.failure && this.phase === 'reading') {
      this.phase = 'ending';
      void this.source!.return?.();
    }
    return passed;
  }

  /** The scrubber's held tail as it passes on, once the upstream's body ended (nothing once a cap was passed). */
  private passTail(): Uint8Array {
    const tap = this.tap;
    const tail = !tap.failure && this.scrubber ? this.scrubber.end() : NO_BYTES;
    if (tail.length === 0) return NO_BYTES;
    const passed = tap.pass(tail);
    this.answerBytes += passed.length;
    return passed;
  }

  /**
   * What the tap held, as it passes on at the end (the body is then done; past a cap this throws the cap's error). An
   * answer whose end passes nothing more (the usual JSON answer): the reader gets the end now and writes it; the usage is
   * read (and settled, and charged) once it gives the body back (`return`, as relay-reply.ts does right after writing
   * the end), or in the next tick at the latest: at c=1 that work no longer delays the answer.
   */
  private passRest(): Uint8Array {
    const tap = this.tap;
    this.phase = 'done';
    if (tap.failure) {
      this.finish();
      throw tap.failure;
    }
    if (tap.endsEmpty()) {
      this.stopUpstream();
      this.endLeft = true;
      process.nextTick(endLater, this);
      return NO_BYTES;
    }
    const rest = tap.end();
    this.answerBytes += rest.length;
    if (rest.length === 0) this.finish();
    return rest;
  }

  /** The caller stopped reading: the upstream is closed and what passed is settled. */
  return(): Promise<IteratorResult<Uint8Array>> {
    if (this.phase === 'reading') void this.source!.return?.();
    this.phase = 'done';
    this.finish();
    return Promise.resolve(DONE);
  }

  /** Settles the usage now, if not yet (the tick after a body's end left to read runs it: see `passRest`). */
  endNow(): void {
    this.finish();
  }

  /**
   * Stops the upstream and settles the usage (once; later calls do nothing). A tap's end left by `passRest` is read first,
   * whoever comes first (`return`, another `next`, the tick after): the answer went out whole already, so a tap that fails
   * to read it settles the usage read so far (billed by estimate, as an answer that does not parse).
   */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopUpstream();
    if (this.endLeft) {
      this.endLeft = false;
      try {
        this.tap.end();
      } catch {
        // Nothing to cut or report to: the usage read so far is what is settled.
      }
    }
    const usage = this.tap.relayed();
    usage.answerBytes = this.answerBytes;
    this.settle(usage);
  }

  /** Stops the upstream request (once). */
  private stopUpstream(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.upstream.stop();
  }
}

/** `first` and then `second` in one piece (either alone when the other is empty, the usual case). */
function joined(first: Uint8Array, second: Uint8Array): Uint8Array {
  if (second.length === 0) return first;
  return first.length === 0 ? second : Buffer.concat([first, second]);
}

// A metered stream at hand, pulled without a generator: its deltas given out one by one (`MeteredAtHand`) or a kept answer's in spans (`MeteredSpans`), each passed to its stream's meter, the charge's commit and the first output given out as Holds.
import { ENDED, Hold, NO_MORE, PulledItems, type AtHand } from '../protocols/at-hand.ts';
import type { ChatDelta } from '../protocols/neutral/deltas.ts';
import { KeptSpan } from '../protocols/neutral/kept-stream.ts';
import type { StreamMeter } from './stream-meter.ts';

/**
 * What the metering of a stream at hand shares, its deltas given out one by one (`MeteredAtHand`) or in spans
 * (`MeteredSpans`): an iterator written out (a generator's resume per delta was the stream's largest own cost) that steps
 * as `ChatMetering.metered` does. The meter starts on the first pull (a stream never pulled is never charged), before the
 * items open (a meter started ends even when they fail to open); it ends once (charging what was delivered when no usage
 * charge was committed) when the items end or throw, when metering throws (the items then closed), or when the consumer
 * returns (the items closed first).
 */
abstract class MeteredPulls<In, Out> implements IterableIterator<Out | Hold> {
  protected readonly items: PulledItems<In>;
  private readonly startMeter: () => StreamMeter;
  protected readonly tellFirstOutput: () => void;
  private meter: StreamMeter | undefined;
  private ended = false;

  constructor(items: AtHand<In>, startMeter: () => StreamMeter, tellFirstOutput: () => void) {
    this.items = new PulledItems(items);
    this.startMeter = startMeter;
    this.tellFirstOutput = tellFirstOutput;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Out | Hold> {
    if (this.ended) return ENDED;
    try {
      return this.step((this.meter ??= this.startMeter()));
    } catch (error) {
      this.end(true);
      throw error;
    }
  }

  /** The consumer stopped: the items are closed, then the meter ends. */
  return(): IteratorReturnResult<undefined> {
    // Like a generator's return, a stream never pulled ends without its meter started (nothing charged, nothing opened).
    this.end();
    return ENDED;
  }

  /** What the next pull gives out, `meter` passed what it stands for (`finished()` once the items ended). */
  protected abstract step(meter: StreamMeter): IteratorResult<Out | Hold>;

  /** The items ended: the meter ends. */
  protected finished(): IteratorReturnResult<undefined> {
    this.end();
    return ENDED;
  }

  /**
   * Ends once: closes the items when still open, then ends the meter (its charge for what was delivered). `thrown`: a
   * step threw, and as a for-of closing its items on a throw, that error goes on, not one of closing the items.
   */
  private end(thrown = false): void {
    if (this.ended) return;
    this.ended = true;
    try {
      this.items.close(thrown);
    } finally {
      this.meter?.end();
    }
  }
}

/**
 * `ChatMetering.metered` over deltas all at hand: the charge's commit is a Hold before the usage delta, which the writer
 * waits for, and the first output is noted by a Hold's `sent` before it. Each delta is passed to the meter on the pull
 * that gives it (or its charge's Hold) out.
 */
export class MeteredAtHand extends MeteredPulls<ChatDelta, ChatDelta> {
  /** A delta given out next: after its first output's Hold (`unpassed`: not yet passed to the meter) or its charge's Hold. */
  private held: ChatDelta | undefined;
  private unpassed = false;

  protected step(meter: StreamMeter): IteratorResult<ChatDelta | Hold> {
    const held = this.held;
    if (held !== undefined) {
      this.held = undefined;
      if (!this.unpassed) return { value: held, done: false };
      this.unpassed = false;
      return this.passed(meter, held);
    }
    const delta = this.items.next();
    if (delta === NO_MORE) return this.finished();
    if (delta instanceof Hold) return { value: delta, done: false };
    // Noted when the writer sends it, which for a stream at hand may be after the charge below.
    if (meter.firstOutput(delta)) {
      this.held = delta;
      this.unpassed = true;
      return { value: new Hold(undefined, this.tellFirstOutput), done: false };
    }
    return this.passed(meter, delta);
  }

  /** `delta` passed to the meter: given out now, or after its charge's Hold. */
  private passed(meter: StreamMeter, delta: ChatDelta): IteratorResult<ChatDelta | Hold> {
    const charge = meter.pass(delta);
    if (charge === undefined) return { value: delta, done: false };
    // Charged once the commit went through, even when the writer then stops here (the client left during the wait);
    // a failed commit leaves it uncharged, so the end charges what was delivered, as the async path does.
    this.held = delta;
    return { value: new Hold(charge), done: false };
  }
}

/**
 * `MeteredAtHand` over a kept answer's deltas given out in spans (asked for only when its stream is written as its render,
 * which leaves in one write: see MAX_KEPT_STREAM_BYTES): each delta is passed to the meter as there, and a span is cut
 * where a Hold goes (the first output's before its delta, the charge's before the usage delta), so the spans and Holds
 * given out stand for the same deltas and Holds in the same order.
 */
export class MeteredSpans extends MeteredPulls<KeptSpan, KeptSpan> {
  private readonly deltas: readonly ChatDelta[];
  /** The span being walked: its deltas from `start` on are given out next, those before `at` already passed to the meter. */
  private span: KeptSpan | undefined;
  private start = 0;
  private at = 0;
  /** A Hold given out next, after the part of the span before it. */
  private held: Hold | undefined;

  constructor(deltas: readonly ChatDelta[], spans: AtHand<KeptSpan>, startMeter: () => StreamMeter, tellFirstOutput: () => void) {
    super(spans, startMeter, tellFirstOutput);
    this.deltas = deltas;
  }

  protected step(meter: StreamMeter): IteratorResult<KeptSpan | Hold> {
    const held = this.held;
    if (held !== undefined) {
      this.held = undefined;
      return { value: held, done: false };
    }
    for (;;) {
      const span = this.span;
      if (span === undefined) {
        const next = this.items.next();
        if (next === NO_MORE) return this.finished();
        if (next instanceof Hold) return { value: next, done: false };
        this.span = next;
        this.start = this.at = next.from;
        continue;
      }
      const deltas = this.deltas;
      while (this.at < span.to) {
        const index = this.at;
        const delta = deltas[index]!;
        // Its first output is noted when the writer sends it: the Hold, then the delta, passed on the next pull.
        if (meter.firstOutput(delta)) return this.cut(index, new Hold(undefined, this.tellFirstOutput));
        this.at = index + 1;
        const charge = meter.pass(delta);
        if (charge !== undefined) return this.cut(index, new Hold(charge));
      }
      this.span = undefined;
      if (this.start < span.to) return { value: new KeptSpan(this.start, span.to), done: false };
    }
  }

  /** The span's deltas before `index` given out (when any), then `hold`; the span goes on from `index`. */
  private cut(index: number, hold: Hold): IteratorResult<KeptSpan | Hold> {
    const start = this.start;
    this.start = index;
    if (start === index) return { value: hold, done: false };
    this.held = hold;
    return { value: new KeptSpan(start, index), done: false };
  }
}

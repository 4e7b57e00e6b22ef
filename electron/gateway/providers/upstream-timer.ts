// The clocks of one upstream call: the time to its response headers, the silence allowed between body chunks, and a deadline for the whole call; the first to run out aborts the call.
import { GatewayError } from '../errors.ts';

/** A channel's time limits for one call (ms): `timeoutMs` to the headers, `idleTimeoutMs` between body chunks, `deadlineMs` for everything. */
export interface UpstreamTimeouts {
  timeoutMs: number;
  idleTimeoutMs: number;
  deadlineMs: number;
}

/** What a read of an upstream that ran out of time throws: an upstream failure whose message says which limit it hit. */
export class UpstreamTimeout extends GatewayError {
  constructor(message: string) {
    super('upstream_failed', message);
  }
}

/** What an UpstreamTimer stops when a limit runs out. */
export interface Abortable {
  abort(reason: UpstreamTimeout): void;
}

/**
 * Watches one upstream call from its start. `call.abort` is called once with an UpstreamTimeout when a limit runs out, so the
 * connection is closed; a read of the body waits (`waitFor`, or `read` over any async iterable) within `idleTimeoutMs`
 * (only time spent waiting for the upstream counts, never time the reader spends passing a chunk on) and the deadline.
 *
 * No timer per limit, nor per call: each call has the earliest moment one of its limits could run out, and one Node timer
 * shared by every call (`SharedClock`) fires at the earliest of them all. A call whose moment came checks which limit ran
 * out (none, when a wait ended meanwhile) and names its next such moment. A call that ends within its limits, the usual
 * case, is only added to the shared clock's set and taken out of it.
 */
export class UpstreamTimer {
  private readonly limits: UpstreamTimeouts;
  /** What is aborted when a limit runs out (an AbortController, or the relay's own per-call object: no closure per call). */
  private readonly call: Abortable;
  /** When the call started, and when the current wait for a chunk did (-1: no wait under way), on `performance.now()`'s clock. */
  private readonly started: number;
  private waitingSince = -1;
  private headers = false;
  /** When the shared clock next checks this call, on the same clock. */
  due = 0;
  /** The shared clock's list of calls watched runs through these (see SharedClock): whether this call is in it, and its neighbours. */
  watched = false;
  before: UpstreamTimer | undefined;
  after: UpstreamTimer | undefined;
  private stopped = false;
  private wake: ((error: UpstreamTimeout) => void) | undefined;
  /** The limit that ran out, once one has. */
  expired: UpstreamTimeout | undefined;

  constructor(limits: UpstreamTimeouts, call: Abortable) {
    this.limits = limits;
    this.call = call;
    this.started = performance.now();
    this.arm(this.started + Math.min(limits.timeoutMs, limits.deadlineMs), this.started);
  }

  /** The headers arrived: only the idle timeout and the deadline still apply. */
  headersArrived(): void {
    this.headers = true;
  }

  /**
   * A read starts waiting for the upstream: the idle timeout counts from now, and `wake` is called with the UpstreamTimeout
   * when a limit runs out before `waited()`. Returns the UpstreamTimeout at once (and waits for nothing) when one already ran out.
   */
  waitFor(wake: (error: UpstreamTimeout) => void): UpstreamTimeout | undefined {
    if (this.expired) return this.expired;
    const now = performance.now();
    this.waitingSince = now;
    this.wake = wake;
    // The timer must fire by the time this wait runs out (with the usual limits it already does).
    if (!this.stopped && this.due > now + this.limits.idleTimeoutMs) this.arm(now + this.limits.idleTimeoutMs, now);
    return undefined;
  }

  /** The wait begun by `waitFor` ended (a chunk, the end, or an error came). */
  waited(): void {
    this.waitingSince = -1;
    this.wake = undefined;
  }

  /**
   * `body` chunk by chunk, each awaited within the idle timeout and the deadline (else the UpstreamTimeout is thrown). A
   * plain iterator, not a generator: one promise per chunk, no generator's own. Given up early (returned, or a read that
   * threw), `body` is closed without waiting: the call is aborted (or its caller stops it) anyway.
   */
  read<T>(body: AsyncIterable<T>): AsyncIterable<T> {
    const chunks = body[Symbol.asyncIterator]();
    let finished = false;
    const close = () => {
      if (finished) return;
      finished = true;
      chunks.return?.()?.catch(() => undefined);
    };
    const iterator: AsyncIterator<T> = {
      next: () => {
        if (finished) return Promise.resolve({ done: true, value: undefined });
        return this.within(chunks.next()).then(
          (step) => {
            if (step.done) finished = true;
            return step;
          },
          (error: unknown) => {
            close();
            throw error;
          },
        );
      },
      return: () => {
        close();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    return { [Symbol.asyncIterator]: () => iterator };
  }

  /** Stops watching the call (it ended or was stopped). */
  stop(): void {
    this.stopped = true;
    CLOCK.remove(this);
  }

  /** `pending`, or the UpstreamTimeout when the idle timeout or the deadline runs out first. */
  private within<T>(pending: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const expired = this.waitFor(reject);
      if (expired) {
        pending.catch(() => undefined);
        reject(expired);
        return;
      }
      pending.then(
        (value) => {
          this.waited();
          resolve(value);
        },
        (error: unknown) => {
          this.waited();
          reject(this.expired ?? error);
        },
      );
    });
  }

  /**
   * The shared clock reached `due` (it is `now`): expires the limit that ran out, if one did, else names the next moment
   * one could.
   */
  check(now: number): void {
    if (this.stopped || this.expired) return;
    const { timeoutMs, idleTimeoutMs, deadlineMs } = this.limits;
    if (now - this.started >= deadlineMs)
      return this.expire(new UpstreamTimeout(`the upstream did not finish its answer within the deadline of ${deadlineMs} ms`));
    if (!this.headers && now - this.started >= timeoutMs)
      return this.expire(new UpstreamTimeout(`no response headers within ${timeoutMs} ms`));
    if (this.waitingSince >= 0 && now - this.waitingSince >= idleTimeoutMs)
      return this.expire(new UpstreamTimeout(`the upstream sent nothing for ${idleTimeoutMs} ms`));
    // A wait that starts after now runs out no sooner than now + idleTimeoutMs.
    let next = Math.min(this.started + deadlineMs, (this.waitingSince >= 0 ? this.waitingSince : now) + idleTimeoutMs);
    if (!this.headers) next = Math.min(next, this.started + timeoutMs);
    this.arm(next, now);
  }

  /** Has the shared clock check this call at `at` (`now`: the clock's time), in place of any moment named before. */
  private arm(at: number, now: number): void {
    this.due = at;
    CLOCK.add(this, now);
  }

  private expire(error: UpstreamTimeout): void {
    this.expired = error;
    this.stop();
    this.call.abort(error);
    this.wake?.(error);
  }
}

/**
 * The one Node timer every upstream call's limits share: set for the earliest `due` among the calls watched, it checks
 * the calls whose moment came and is set again for the next earliest. A call taken out of the set leaves the timer as it
 * is: it fires at most once more, finds nothing due, and is set again only while calls are watched. It does not hold the
 * process up (unref): a call in flight has its connection doing that.
 */
class SharedClock {
  /** The calls watched, oldest first, linked through their own fields: no hash of each call's object, as a Set takes. */
  private first: UpstreamTimer | undefined;
  private last: UpstreamTimer | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (Infinity: not set), on `performance.now()`'s clock. */
  private at = Number.POSITIVE_INFINITY;
  /** `fire`, made once for the process. */
  private readonly onTimer = (): void => this.fire();

  /** Watches `call` until its `due` (again, if it was: its moment may have moved). */
  add(call: UpstreamTimer, now: number): void {
    if (!call.watched) {
      call.watched = true;
      call.before = this.last;
      call.after = undefined;
      if (this.last === undefined) this.first = call;
      else this.last.after = call;
      this.last = call;
    }
    if (call.due < this.at) this.set(call.due, now);
  }

  remove(call: UpstreamTimer): void {
    if (!call.watched) return;
    call.watched = false;
    const { before, after } = call;
    if (before === undefined) this.first = after;
    else before.after = after;
    if (after === undefined) this.last = before;
    else after.before = before;
    call.before = call.after = undefined;
  }

  private set(at: number, now: number): void {
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(this.onTimer, Math.max(1, Math.ceil(at - now)));
    this.timer.unref();
  }

  /** Checks every call whose moment came (each names its next one, or is done), then sets the timer for the earliest left. */
  private fire(): void {
    this.timer = undefined;
    this.at = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const came: UpstreamTimer[] = [];
    for (let call = this.first; call !== undefined; call = call.after) if (call.due <= now) came.push(call);
    try {
      for (const call of came) {
        this.remove(call);
        call.check(now);
      }
    } finally {
      // Whatever one call's abort threw, the others stay watched.
      let next = Number.POSITIVE_INFINITY;
      for (let call = this.first; call !== undefined; call = call.after) if (call.due < next) next = call.due;
      if (next < this.at) this.set(next, now);
    }
  }
}

const CLOCK = new SharedClock();

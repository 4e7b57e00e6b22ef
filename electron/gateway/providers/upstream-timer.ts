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

/**
 * Watches one upstream call from its start. `abort` is called once with an UpstreamTimeout when a limit runs out, so the
 * connection is closed; `read` passes a body on and throws that error when a chunk takes longer than `idleTimeoutMs`
 * (only time spent waiting for the upstream counts, never time the reader spends passing a chunk on) or the deadline passes.
 */
export class UpstreamTimer {
  private readonly limits: UpstreamTimeouts;
  private readonly abort: (reason: UpstreamTimeout) => void;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private headersTimer: NodeJS.Timeout | undefined;
  /**
   * The idle timeout: one timer per call, re-armed (`refresh`) at each wait for a chunk instead of a new timer per
   * chunk; when it fires while no wait is under way (the reader is passing a chunk on), it does nothing.
   */
  private idleTimer: NodeJS.Timeout | undefined;
  /** Whether a read is waiting for the upstream now (only then does the idle timeout count). */
  private waiting = false;
  private wake: ((error: UpstreamTimeout) => void) | undefined;
  /** The limit that ran out, once one has. */
  expired: UpstreamTimeout | undefined;

  constructor(limits: UpstreamTimeouts, abort: (reason: UpstreamTimeout) => void) {
    this.limits = limits;
    this.abort = abort;
    this.deadlineTimer = setTimeout(
      () => this.expire(new UpstreamTimeout(`the upstream did not finish its answer within the deadline of ${limits.deadlineMs} ms`)),
      limits.deadlineMs,
    );
    if (limits.timeoutMs < limits.deadlineMs)
      this.headersTimer = setTimeout(
        () => this.expire(new UpstreamTimeout(`no response headers within ${limits.timeoutMs} ms`)),
        limits.timeoutMs,
      );
  }

  /** The headers arrived: only the idle timeout and the deadline still apply. */
  headersArrived(): void {
    clearTimeout(this.headersTimer);
    this.headersTimer = undefined;
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

  /** Clears every timer (the call ended or was stopped). */
  stop(): void {
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.headersTimer);
    clearTimeout(this.idleTimer);
    this.deadlineTimer = this.headersTimer = this.idleTimer = undefined;
  }

  /** `pending`, or the UpstreamTimeout when the idle timeout or the deadline runs out first. */
  private within<T>(pending: Promise<T>): Promise<T> {
    if (this.expired) {
      pending.catch(() => undefined);
      return Promise.reject(this.expired);
    }
    this.waiting = true;
    if (this.idleTimer) this.idleTimer.refresh();
    else this.idleTimer = setTimeout(() => this.idled(), this.limits.idleTimeoutMs);
    return new Promise<T>((resolve, reject) => {
      this.wake = reject;
      pending.then(
        (value) => {
          this.waiting = false;
          this.wake = undefined;
          resolve(value);
        },
        (error: unknown) => {
          this.waiting = false;
          this.wake = undefined;
          reject(this.expired ?? error);
        },
      );
    });
  }

  /** The idle timer fired: a read waited `idleTimeoutMs` for the upstream (else it fired while the reader worked, and counts for nothing). */
  private idled(): void {
    if (this.waiting) this.expire(new UpstreamTimeout(`the upstream sent nothing for ${this.limits.idleTimeoutMs} ms`));
  }

  private expire(error: UpstreamTimeout): void {
    if (this.expired) return;
    this.expired = error;
    this.stop();
    this.abort(error);
    this.wake?.(error);
  }
}

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
  private readonly timers = new Set<NodeJS.Timeout>();
  private headersTimer: NodeJS.Timeout | undefined;
  private wake: ((error: UpstreamTimeout) => void) | undefined;
  /** The idle timeout's message (made once per call, not once per chunk). */
  private readonly idleMessage = () => `the upstream sent nothing for ${this.limits.idleTimeoutMs} ms`;
  /** The limit that ran out, once one has. */
  expired: UpstreamTimeout | undefined;

  constructor(limits: UpstreamTimeouts, abort: (reason: UpstreamTimeout) => void) {
    this.limits = limits;
    this.abort = abort;
    this.schedule(limits.deadlineMs, () => `the upstream did not finish its answer within the deadline of ${limits.deadlineMs} ms`);
    if (limits.timeoutMs < limits.deadlineMs)
      this.headersTimer = this.schedule(limits.timeoutMs, () => `no response headers within ${limits.timeoutMs} ms`);
  }

  /** The headers arrived: only the idle timeout and the deadline still apply. */
  headersArrived(): void {
    if (this.headersTimer) this.clear(this.headersTimer);
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
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** `pending`, or the UpstreamTimeout when the idle timeout or the deadline runs out first. */
  private within<T>(pending: Promise<T>): Promise<T> {
    if (this.expired) {
      pending.catch(() => undefined);
      return Promise.reject(this.expired);
    }
    const idle = this.schedule(this.limits.idleTimeoutMs, this.idleMessage);
    return new Promise<T>((resolve, reject) => {
      this.wake = reject;
      pending.then(
        (value) => {
          this.wake = undefined;
          this.clear(idle);
          resolve(value);
        },
        (error: unknown) => {
          this.wake = undefined;
          this.clear(idle);
          reject(this.expired ?? error);
        },
      );
    });
  }

  private schedule(ms: number, message: () => string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.expire(new UpstreamTimeout(message()));
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private clear(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  private expire(error: UpstreamTimeout): void {
    if (this.expired) return;
    this.expired = error;
    this.stop();
    this.abort(error);
    this.wake?.(error);
  }
}

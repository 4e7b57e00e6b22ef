// The background task that moves batches along: a timer (never keeping the process alive) asks the batches service for one step at a time, never overlapping (a step starts lines, never waits for them); its failures are reported, never thrown.
import type { BatchesService } from '../services/batches.ts';

/** How often the runner looks at running batches (real time; how far each moves is decided by the gateway's clock). */
export const BATCH_TICK_MS = 100;

export class BatchRunner {
  private readonly batches: BatchesService;
  private readonly onError: (error: unknown) => void;
  private readonly tickMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private controller = new AbortController();

  constructor(options: { batches: BatchesService; onError: (error: unknown) => void; tickMs?: number }) {
    this.batches = options.batches;
    this.onError = options.onError;
    this.tickMs = options.tickMs ?? BATCH_TICK_MS;
  }

  /** Starts the timer; batches left running by an earlier run of the gateway continue from their last recorded line. */
  start(): void {
    if (this.timer) return;
    this.controller = new AbortController();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  /** Stops the timer, aborts the lines under way (those that had not answered run again after a restart) and waits for the step and every line to end. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.controller.abort(new Error('the gateway is stopping'));
    await this.running;
    await this.batches.settle();
  }

  /** Takes a step now rather than at the next tick (the gateway's clock jumped forward); nothing while stopped. */
  kick(): void {
    if (this.timer) this.tick();
  }

  private tick(): void {
    if (this.running) return;
    const signal = this.controller.signal;
    this.running = this.batches
      .advance(signal, this.onError)
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
      });
  }
}

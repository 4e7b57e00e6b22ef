// A small bounded pool of worker threads for media and large text jobs, so image, audio and long-text work never blocks the event loop; a full queue is a 503.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { GatewayError } from '../errors.ts';
import { startThread, workerEntry } from '../thread-start.ts';
import type { MediaJob, MediaJobKind, MediaJobs } from './media-jobs.ts';
import type { MediaReply } from './media-worker.ts';

/** Worker threads by default: one fewer than the cores (the event loop keeps one), at least one. */
export const DEFAULT_MEDIA_WORKERS = Math.max(1, availableParallelism() - 1);
/** Jobs that may wait for a free worker by default; one more is refused with a 503. */
export const DEFAULT_MEDIA_QUEUE = 16;

/** How many workers and how many waiting jobs. */
export interface MediaPoolOptions {
  workers?: number;
  queue?: number;
}

interface Pending {
  job: MediaJob;
  resolve(output: unknown): void;
  reject(error: unknown): void;
}

export class MediaPool {
  readonly size: number;
  readonly queueLimit: number;
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(options: MediaPoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? DEFAULT_MEDIA_WORKERS);
    this.queueLimit = Math.max(0, options.queue ?? DEFAULT_MEDIA_QUEUE);
  }

  /** Runs a job on a worker thread; a 503 when every worker is busy and the queue is full, a 400 for an input the job could not use. */
  run<K extends MediaJobKind>(kind: K, input: MediaJobs[K]['input']): Promise<MediaJobs[K]['output']> {
    if (this.closed) return Promise.reject(new GatewayError('unavailable', 'The gateway is shutting down.'));
    const free = this.idle.length > 0 || this.workerCount() < this.size;
    if (!free && this.queue.length >= this.queueLimit) {
      return Promise.reject(
        new GatewayError(
          'unavailable',
          `The gateway is busy: ${this.busy.size} image/audio jobs are running and ${this.queue.length} are waiting (at most ${this.queueLimit}). Try again shortly.`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { kind, input } as MediaJob, resolve: resolve as (output: unknown) => void, reject });
      this.pump();
    });
  }

  /** Stops every worker; running and waiting jobs fail with a 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new GatewayError('unavailable', 'The gateway is shutting down.'));
    await Promise.all([...this.idle, ...this.busy.keys()].map((worker) => worker.terminate()));
  }

  private workerCount(): number {
    return this.idle.length + this.busy.size;
  }

  private pump(): void {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.workerCount() < this.size)) {
      const worker = this.idle.pop() ?? this.spawn();
      const pending = this.queue.shift()!;
      this.busy.set(worker, pending);
      worker.postMessage(pending.job);
    }
  }

  private spawn(): Worker {
    // Through the compile cache: a thread from the .ts sources does not strip them again (see thread-start.ts).
    const worker = startThread(workerEntry(import.meta.url, 'media-worker'));
    // The pool never keeps the process alive on its own.
    worker.unref();
    let failure: Error | undefined;
    worker.on('message', (reply: MediaReply) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      if (!this.closed) this.idle.push(worker);
      if (reply.ok) pending?.resolve(reply.output);
      else
        pending?.reject(
          reply.kind
            ? new GatewayError(reply.kind, reply.message, reply.param)
            : new GatewayError('internal', `The media job failed: ${reply.message}`),
        );
      this.pump();
    });
    worker.on('error', (error) => (failure = error));
    worker.on('exit', () => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      const reason = this.closed ? 'The gateway is shutting down.' : `The media worker stopped${failure ? `: ${failure.message}` : ''}.`;
      pending?.reject(new GatewayError(this.closed ? 'unavailable' : 'internal', reason));
      if (!this.closed) this.pump();
    });
    return worker;
  }
}

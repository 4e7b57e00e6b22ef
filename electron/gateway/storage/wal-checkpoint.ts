// Keeps the WAL's checkpoints off the event loop: a worker thread with its own connection copies committed pages into the database file on a timer; the event loop's connection checkpoints only past a backstop.
import type { Worker } from 'node:worker_threads';
import { startWorker, threadEndOf, threadsEnded } from '../thread-start.ts';
import type { Db } from './database.ts';
import type { CheckpointReport, CheckpointWorkerData } from './wal-checkpoint-worker.ts';

/** How often the checkpoint thread copies the WAL's new pages into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;
/**
 * WAL pages past which the event loop's own connection checkpoints after a commit (SQLite's `wal_autocheckpoint`, 1,000
 * by default), so the WAL stays bounded while the thread is down or behind: about 16 MiB with 4 KiB pages.
 */
export const WAL_BACKSTOP_PAGES = 4000;
/** How long `stop()` lets the thread's last checkpoint run before ending the thread (committed pages stay in the WAL, read as usual). */
export const CHECKPOINT_STOP_MS = 2_000;
/** How long after the checkpoint thread stopped unexpectedly another is started. */
export const CHECKPOINT_RESTART_MS = 1000;
/**
 * How long after a gateway starts listening its checkpoint thread starts (`startSoon`): the thread's own start-up (a
 * Node thread, its module loader, its connection) stays out of the way of the first answers; until then SQLite
 * checkpoints on the event loop's connection as it does by default.
 */
export const CHECKPOINT_START_DELAY_MS = 1000;

export interface WalCheckpointerOptions {
  /** Told when the thread stops unexpectedly (it is restarted after CHECKPOINT_RESTART_MS). */
  onError: (error: unknown) => void;
  intervalMs?: number;
}

/**
 * Moves the WAL checkpoints of a WAL-mode file off the event loop. Commits stay where they are (on the event loop's
 * connection, durable when they return), so nothing acknowledged changes: a checkpoint only copies committed pages
 * from the WAL into the database file. While the thread runs, the event loop's connection checkpoints only once the
 * WAL holds WAL_BACKSTOP_PAGES (a thread that died or fell behind); `stop()` runs a last checkpoint and closes the
 * thread's connection, so closing the database next (its last connection) folds in and removes the WAL.
 */
export class WalCheckpointer {
  private readonly db: Db;
  private readonly options: WalCheckpointerOptions;
  private worker: Worker | undefined;
  private restart: NodeJS.Timeout | undefined;
  private stopped = false;
  private rounds = 0;

  constructor(db: Db, options: WalCheckpointerOptions) {
    this.db = db;
    this.options = options;
  }

  /** Starts the thread (a file not in WAL mode, or in memory, keeps SQLite's own checkpoints). */
  start(): void {
    if (this.stopped || this.worker || this.db.memory) return;
    if (this.db.pragma('journal_mode', { simple: true }) !== 'wal') return;
    this.db.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
    this.spawn();
  }

  /** Starts the thread after `delayMs` (CHECKPOINT_START_DELAY_MS), unless `stop()` comes first. */
  startSoon(delayMs = CHECKPOINT_START_DELAY_MS): void {
    if (this.stopped || this.worker || this.restart) return;
    // The same timer as a restart's: stop() clears it.
    this.restart = setTimeout(() => {
      this.restart = undefined;
      this.start();
    }, delayMs);
    this.restart.unref();
  }

  /** Checkpoint rounds that copied pages since the start (all threads). */
  get checkpoints(): number {
    return this.rounds;
  }

  /** The running thread, if any (a test ends it to check that another takes over). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  /** Runs a last checkpoint on the thread and waits for it to end; the event loop's connection checkpoints as SQLite does by default again. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restart) clearTimeout(this.restart);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      worker.postMessage('stop');
      // A last checkpoint that waits on a lock never holds the stop (a restart from the console hung on it): the thread is ended.
      await threadsEnded([worker], CHECKPOINT_STOP_MS);
    }
    try {
      this.db.pragma('wal_autocheckpoint = 1000');
    } catch {
      // Closed already: nothing left to checkpoint from this connection.
    }
  }

  private spawn(): void {
    const data: CheckpointWorkerData = { file: this.db.name, intervalMs: this.options.intervalMs ?? CHECKPOINT_INTERVAL_MS };
    // The thread never keeps the process alive on its own.
    const worker = startWorker(import.meta.url, 'wal-checkpoint-worker', data, (failure, code) => this.ended(worker, failure, code));
    worker.on('message', (_report: CheckpointReport) => (this.rounds += 1));
    this.worker = worker;
  }

  /** A thread ended: unless stopped, that is reported and another started after CHECKPOINT_RESTART_MS. */
  private ended(worker: Worker, failure: Error | undefined, code: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.stopped) return;
    this.report(
      new Error(
        `The WAL checkpoint thread stopped (${threadEndOf(failure, code)}); another starts in ${CHECKPOINT_RESTART_MS} ms, and the database checkpoints on the event loop past ${WAL_BACKSTOP_PAGES} WAL pages meanwhile.`,
      ),
    );
    this.restart = setTimeout(() => {
      this.restart = undefined;
      if (!this.stopped) this.spawn();
    }, CHECKPOINT_RESTART_MS);
    this.restart.unref();
  }

  private report(error: unknown): void {
    try {
      this.options.onError(error);
    } catch {
      // A failing reporter loses the report, never the process.
    }
  }
}

// The event loop's side of the journal thread: started on the first record or read and ended once idle, it takes each batch and read as a message and answers with a promise; stop() waits, bounded, for what was posted to be committed.
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { startWorker, threadEndOf, threadsEnded } from '../thread-start.ts';
import type { JournalEntry, JournalQuery, JournalRecord, JournalSummary } from '../../../shared/journal.ts';
import { KeptSlots } from './journal-kept-slots.ts';
import { journalRowsOf, referKeptAnswers, type JournalBatch } from './journal-row.ts';
import { journalFileOf } from './journal-store.ts';
import type { JournalReply, JournalRequest, JournalWorkerData } from './journal-worker.ts';

/** How long `stop()` waits for the thread to commit what was posted and close its file before ending it (what it had not committed is lost). */
export const JOURNAL_STOP_MS = 5_000;
/** After the thread stopped unexpectedly, how long requests fail at once (with its failure) before another thread is started. */
export const JOURNAL_RESTART_MS = 1_000;
/**
 * How long the thread waits for the next request before it closes the file and ends, giving back its memory (a
 * thread holds about 14 MiB bundled, 18 MiB from the sources through the compile cache); the next batch or read starts
 * another (a few ms on the event loop).
 */
export const JOURNAL_IDLE_MS = 10_000;

/** A request as posted, without the id the thread gives it. */
type Request = JournalRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export interface JournalThreadOptions {
  idleMs?: number;
}

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The journal's store (journal.sqlite) as the event loop sees it: every write and read is a message to one worker
 * thread, the file's only connection, handled in the order posted (a read sees every batch posted before it). The
 * thread starts on the first request, so a gateway that records nothing never starts it; a read while it is not running
 * and the file does not exist answers "empty" without starting it.
 */
export class JournalThread {
  private readonly dataDir: string;
  private readonly idleMs: number;
  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private stopped = false;
  /** Whether a thread of this process opened the file with its checks (it answered): a later one only reconnects. */
  private opened = false;
  /** The kept renders' layouts each slot of the running thread holds (see journal-kept-slots.ts). */
  private readonly slots = new KeptSlots();
  /** The failure of a thread that stopped unexpectedly, and until when requests fail with it. */
  private failure: { error: Error; until: number } | undefined;

  constructor(dataDir: string, options: JournalThreadOptions = {}) {
    this.dataDir = dataDir;
    this.idleMs = options.idleMs ?? JOURNAL_IDLE_MS;
  }

  /**
   * Inserts the records in one transaction, keeps the newest `limit`, and answers their ids in order. They cross to the
   * thread as one batch of rows (journal-row.ts) and only ids come back: the caller has the rest.
   */
  insert(records: readonly JournalRecord[], limit: number): Promise<number[]> {
    const moved: ArrayBuffer[] = [];
    return this.insertRows(journalRowsOf(records, moved), moved, limit);
  }

  /** `insert` of records already made a batch of rows (journal-row.ts), the buffers in `moved` moved with it. */
  insertRows(batch: JournalBatch, moved: ArrayBuffer[], limit: number): Promise<number[]> {
    return this.call({ op: 'insert', rows: batch, limit }, moved) as Promise<number[]>;
  }

  /** A page of summaries, newest first. */
  async list(
    filter: Omit<JournalQuery, 'p' | 'page_size'>,
    page: number,
    pageSize: number,
  ): Promise<{ total: number; items: JournalSummary[] }> {
    if (this.unused()) return { total: 0, items: [] };
    return (await this.call({ op: 'list', filter, page, pageSize })) as { total: number; items: JournalSummary[] };
  }

  async get(entryId: number): Promise<JournalEntry | undefined> {
    if (this.unused()) return undefined;
    return ((await this.call({ op: 'get', entryId })) as JournalEntry | null) ?? undefined;
  }

  /** Removes every entry, or those of one test id; answers how many went. */
  async clear(testId?: string): Promise<number> {
    if (this.unused()) return 0;
    return (await this.call({ op: 'clear', ...(testId !== undefined && { testId }) })) as number;
  }

  /** The running thread, if any (a test ends it to check that another takes over). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  /**
   * Lets the thread handle everything posted so far (its answers arrive first), close its file and end; past
   * JOURNAL_STOP_MS it is ended and what it was still doing is answered with a failure. Requests after stop fail.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.idle) clearTimeout(this.idle);
    this.worker?.postMessage('stop');
    // The running thread and any retired one still closing its file.
    await threadsEnded([...this.retired, ...(this.worker ? [this.worker] : [])], JOURNAL_STOP_MS);
  }

  /** No thread and no file: nothing was ever recorded in this data dir, and a read need not start the thread. */
  private unused(): boolean {
    return this.worker === undefined && !existsSync(journalFileOf(this.dataDir));
  }

  /** Posts `request`; the buffers in `moved` go to the thread (detached here), not copied. */
  private call(request: Request, moved?: ArrayBuffer[]): Promise<unknown> {
    if (this.stopped) return Promise.reject(new Error('The journal is stopped'));
    if (this.failure && Date.now() < this.failure.until) return Promise.reject(this.failure.error);
    const worker = this.worker ?? this.spawn();
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // The thread keeps the process alive only while an answer is awaited.
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      let batch: number | undefined;
      if (request.op === 'insert') {
        // A kept render's answer goes as a slot of this thread's: its layout is defined in the batch on first use.
        this.slots.forThread(worker);
        referKeptAnswers(request.rows, this.slots);
        batch = this.slots.nextBatch();
      }
      try {
        worker.postMessage({ ...request, id, ...(batch !== undefined && { batch }) } as JournalRequest, moved);
      } catch (error) {
        // Not posted: nothing will answer it (the thread keeps the process alive no longer for it, and retires when
        // idle as after an answer), and the slots it defined are not the thread's.
        this.waiting.delete(id);
        if (this.waiting.size === 0) {
          worker.unref();
          this.retireWhenIdle(worker);
        }
        this.slots.forget();
        throw error;
      }
    });
  }

  /**
   * The thread answers in the order it was asked: a request still waiting when a later one is answered never reached it
   * (its message could not be read there). It fails, and the slots are given again (a lost batch may have defined some).
   */
  private lostBefore(answered: number): void {
    for (const [id, waiting] of this.waiting) {
      if (id >= answered) return;
      this.waiting.delete(id);
      this.slots.forget();
      waiting.reject(new Error('Journal: the request never reached the journal thread'));
    }
  }

  /** Threads asked to end because they were idle (their exit is no failure). */
  private readonly retired = new Set<Worker>();

  /** Ends `worker` (closing its file) once it has had nothing to do for `idleMs`; a request meanwhile keeps it. */
  private retireWhenIdle(worker: Worker): void {
    this.idle = setTimeout(() => {
      this.idle = undefined;
      if (this.worker !== worker || this.waiting.size > 0) return;
      // Detached first: a request from now on starts another thread (both connections are safe on one file meanwhile).
      this.worker = undefined;
      this.retired.add(worker);
      worker.postMessage('stop');
    }, this.idleMs);
    this.idle.unref();
  }

  private spawn(): Worker {
    const data: JournalWorkerData = { dataDir: this.dataDir, opened: this.opened };
    const worker = startWorker(import.meta.url, 'journal-worker', data, (failure, code) => this.ended(worker, failure, code));
    worker.on('message', (reply: JournalReply) => {
      this.opened = true;
      this.lostBefore(reply.id);
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) {
        worker.unref();
        this.retireWhenIdle(worker);
      }
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(`Journal: ${reply.error}`));
    });
    this.worker = worker;
    return worker;
  }

  /** A thread ended: as asked when idle, or else its requests fail and the next start opens the file with every check. */
  private ended(worker: Worker, failure: Error | undefined, code: number): void {
    // A thread retired when idle ended as asked (nothing was waiting on it).
    if (this.retired.delete(worker)) return;
    if (this.worker === worker) this.worker = undefined;
    // After a thread that stopped unexpectedly, the next one opens the file with every check again.
    this.opened = false;
    const error =
      this.stopped && !failure
        ? new Error('The journal thread was ended before it answered (stop took too long)')
        : new Error(`The journal thread stopped (${threadEndOf(failure, code)})`);
    if (!this.stopped) this.failure = { error, until: Date.now() + JOURNAL_RESTART_MS };
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

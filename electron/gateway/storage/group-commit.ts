// Group commit for bookkeeping writes (usage ledger, channel health): queued during one event-loop turn and committed together in one transaction, so concurrent calls share one durable flush.
import type { Db } from './database.ts';

/** Most writes one commit takes; a longer queue is committed in several transactions. */
export const GROUP_COMMIT_LIMIT = 1000;

/** What a service needs of the group commit: queue a write no caller waits for, and commit the queue before a read of it. */
export interface DeferredWrites {
  defer(write: () => void): void;
  flush(): void;
}

/** The same, and a write its caller waits for: resolved once it is committed (a charge before its answer goes out). */
export interface CommittedWrites extends DeferredWrites {
  commit(write: () => void): Promise<void>;
}

/** Without a group commit (a CLI process, a unit test): each write is its own commit, at once. */
export const writeAtOnce: CommittedWrites = {
  defer: (write) => write(),
  flush: () => undefined,
  commit: async (write) => write(),
};

/**
 * Writes queued and committed together at the end of the current event-loop turn (`setImmediate`), in one
 * transaction, so N calls in one turn cost one `synchronous=FULL` flush instead of N. `commit()` resolves once its
 * write is durable (an answer that waits for it acknowledges nothing that a crash could lose); `defer()` is for
 * writes no caller waits for. A write that throws is rolled back alone (its own savepoint): a deferred one is
 * reported, a committed one rejects its promise; the others commit. `flush()` commits the queue at once: before a
 * write that reads what is queued, and when the gateway stops.
 */
export class GroupCommit implements CommittedWrites {
  private readonly db: Db;
  private readonly onError: (error: unknown) => void;
  private queue: { write: () => void; done?: (error?: unknown) => void }[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  /** The whole-batch transaction, made once. */
  private readonly writeAll: (batch: readonly { write: () => void }[]) => void;

  constructor(db: Db, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
    this.writeAll = db.transaction((batch: readonly { write: () => void }[]) => {
      for (const item of batch) item.write();
    });
  }

  /**
   * Queues `write` (synchronous SQLite work) for the commit at the end of this turn; inside a transaction under way it
   * runs at once, as part of it, so a caller that makes a charge atomic with its own writes keeps it atomic.
   */
  defer(write: () => void): void {
    if (this.db.inTransaction) {
      write();
      return;
    }
    this.enqueue({ write });
  }

  /** Queues `write` and resolves once it is committed (rejects with its error, or the commit's). */
  commit(write: () => void): Promise<void> {
    if (this.db.inTransaction) {
      try {
        write();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return new Promise((resolve, reject) => this.enqueue({ write, done: (error) => (error === undefined ? resolve() : reject(error)) }));
  }

  private enqueue(item: { write: () => void; done?: (error?: unknown) => void }): void {
    this.queue.push(item);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes waiting for their commit. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Commits every queued write now; never throws (failures go to `onError`). The commit runs with
   * `synchronous=NORMAL`: in WAL mode a committed transaction is in the WAL file (the kernel's page cache) when the
   * commit returns, so a crash of the process (`kill -9`) loses none of it, yet the commit does not wait for the disk
   * flush that only a power loss or a crash of the machine would need (the next FULL commit or checkpoint flushes it).
   */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.queue.length === 0) return;
    // A closed database (a write queued as the gateway stops) fails each write below, as any failed commit does.
    const relaxed = this.setSynchronous('NORMAL');
    try {
      this.commitQueue();
    } finally {
      if (relaxed) this.setSynchronous('FULL');
    }
  }

  private commitQueue(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, GROUP_COMMIT_LIMIT);
      if (this.commitWhole(batch)) continue;
      const failed = new Map<number, unknown>();
      let commitError: unknown;
      try {
        this.db.transaction(() => {
          batch.forEach((item, index) => {
            try {
              this.db.transaction(item.write)();
            } catch (error) {
              failed.set(index, error);
            }
          });
        })();
      } catch (error) {
        commitError = error ?? new Error('the commit failed');
      }
      batch.forEach((item, index) => {
        const error = commitError ?? failed.get(index);
        if (item.done) item.done(error);
        else if (error !== undefined) this.report(error);
      });
    }
  }

  /**
   * The usual case, cheaply: the whole batch in one transaction with no savepoint per write. False when a write
   * threw: the transaction is rolled back and the caller replays the batch with one savepoint per write, so a
   * write is SQLite work that may run twice (once undone).
   */
  private commitWhole(batch: { write: () => void; done?: (error?: unknown) => void }[]): boolean {
    try {
      this.writeAll(batch);
    } catch {
      return false;
    }
    for (const item of batch) item.done?.();
    return true;
  }

  /** Sets the connection's durability mode; false when it could not (the database is closed). */
  private setSynchronous(mode: 'NORMAL' | 'FULL'): boolean {
    try {
      this.db.prepare(`PRAGMA synchronous = ${mode}`).run();
      return true;
    } catch {
      return false;
    }
  }

  private report(error: unknown): void {
    try {
      this.onError(error);
    } catch {
      // A failing reporter loses the report, never the process.
    }
  }
}

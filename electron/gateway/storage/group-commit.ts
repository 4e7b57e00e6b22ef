// Group commit for bookkeeping writes (usage ledger, channel health): queued during one event-loop turn and committed together in one transaction, so concurrent calls share one durable flush.
import type { Db } from './database.ts';

/** Most writes one commit takes; a longer queue is committed in several transactions. */
export const GROUP_COMMIT_LIMIT = 1000;

/**
 * Bookkeeping writes that no caller waits for: each is queued and the queue is committed at the end of the current
 * event-loop turn (`setImmediate`), in one transaction, so N calls answered in one turn cost one `synchronous=FULL`
 * flush instead of N. A write that throws is rolled back alone (its own savepoint) and reported; the others commit.
 * `flush()` commits the queue at once: before a write that reads what is queued, and when the gateway stops.
 */
export class GroupCommit {
  private readonly db: Db;
  private readonly onError: (error: unknown) => void;
  private queue: (() => void)[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(db: Db, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
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
    this.queue.push(write);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes waiting for their commit. */
  get pending(): number {
    return this.queue.length;
  }

  /** Commits every queued write now; never throws (failures go to `onError`). */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, GROUP_COMMIT_LIMIT);
      try {
        this.db.transaction(() => {
          for (const write of batch) {
            try {
              this.db.transaction(write)();
            } catch (error) {
              this.report(error);
            }
          }
        })();
      } catch (error) {
        this.report(error);
      }
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

// Group commit for bookkeeping writes (usage ledger, channel health): queued and committed together in one transaction, at the end of the turn when a caller waits for one, else within DEFERRED_COMMIT_MS, so concurrent calls, and a lone caller's calls in a row, share one flush (and writes of one kind share their statements).
import type { Transaction } from 'better-sqlite3';
import type { Db } from './database.ts';
import { readDataVersionInTransaction } from './read-cache.ts';
import { syncModeOf, type SyncMode } from './sync-mode.ts';

/** Most writes one commit takes; a longer queue is committed in several transactions. */
export const GROUP_COMMIT_LIMIT = 1000;

/**
 * How long a write no caller waits for (a relayed answer's charge, a call's count, a channel's success) may wait for its
 * commit: it goes with the next commit a waited-for write starts, or this long after it was queued. A lone client's
 * calls one after another (a coding tool's, relayed) then share one commit every few calls instead of paying one each
 * between the answer and the next request (40–60 µs of the event loop per relayed call at c=1 here); a crash of the process can
 * lose what was queued this long, as it could lose what one turn queued before.
 */
export const DEFERRED_COMMIT_MS = 2;

/**
 * Writes of one kind (one item each, e.g. a charge) that one commit writes together: `writeMany` writes all the items of
 * a commit at once (e.g. one UPDATE per token for many charges) inside the commit's transaction, and needs no savepoint
 * of its own (when it throws, the whole commit is rolled back and written again one item at a time, each in a savepoint),
 * `writeOne` writes one item alone and atomically (without a group commit, inside a transaction under way, and when a
 * failed commit is replayed one write at a time), and
 * `settled` is told once per item, after its commit or its failure (what the item held in memory until then can go).
 * `settled` must not throw.
 */
export interface JoinedWrite<T> {
  writeMany(items: readonly T[]): void;
  writeOne(item: T): void;
  settled(item: T): void;
}

/**
 * What a service needs of the group commit: queue a write no caller waits for (committed within DEFERRED_COMMIT_MS, or at
 * the end of this turn when `endOfTurn`: what the next call reads as committed), and commit the queue before a read of it.
 */
export interface DeferredWrites {
  defer(write: () => void): void;
  /** Queues one item of a kind whose items of one commit are written together (see `JoinedWrite`). */
  deferItem<T>(kind: JoinedWrite<T>, item: T, endOfTurn?: boolean): void;
  flush(): void;
}

/** The same, and a write its caller waits for: resolved once it is committed (a charge before its answer goes out). */
export interface CommittedWrites extends DeferredWrites {
  commit(write: () => void): Promise<void>;
  /** `deferItem`, resolved once the item is committed (rejected with its error, or the commit's). */
  commitItem<T>(kind: JoinedWrite<T>, item: T): Promise<void>;
}

/** Writes one item alone, at once; it is settled whether written or failed. */
function writeItemNow<T>(kind: JoinedWrite<T>, item: T): void {
  try {
    kind.writeOne(item);
  } finally {
    kind.settled(item);
  }
}

/** `writeItemNow` as a promise: resolved once written, rejected with the write's error. */
function writeItemNowAsync<T>(kind: JoinedWrite<T>, item: T): Promise<void> {
  try {
    writeItemNow(kind, item);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** A plain write (`defer`, `commit`) as the item of a one-off kind: the write is the item, and it holds nothing to settle. */
const plainWrite: JoinedWrite<() => void> = {
  writeMany: (writes) => {
    for (const write of writes) write();
  },
  writeOne: (write) => write(),
  settled: () => undefined,
};

/** Without a group commit (a CLI process, a unit test): each write is its own commit, at once. */
export const writeAtOnce: CommittedWrites = {
  defer: (write) => writeItemNow(plainWrite, write),
  deferItem: writeItemNow,
  flush: () => undefined,
  commit: (write) => writeItemNowAsync(plainWrite, write),
  commitItem: writeItemNowAsync,
};

/** A queued write: an item of a kind (a plain write is one of `plainWrite`), and who waits for its commit. */
interface Queued {
  kind: JoinedWrite<unknown>;
  item: unknown;
  done: ((error?: unknown) => void) | undefined;
}

/**
 * Writes queued and committed together in one transaction: at the end of the current event-loop turn (`setImmediate`)
 * once a caller waits for one of them, so N calls in one turn cost one flush instead of N; writes no caller waits for
 * alone, within DEFERRED_COMMIT_MS. `commit()` resolves once its write is durable (an answer that waits for it
 * acknowledges nothing that a crash could lose); `defer()` is for writes no caller waits for. A write that throws is
 * rolled back alone (its own savepoint): a deferred one is reported, a committed one rejects its promise; the others
 * commit. `flush()` commits the queue at once: before a read of what is queued (the admin API's every request), and
 * when the gateway stops. Items of a joined kind (`deferItem`, `commitItem`) are written together by their kind once the
 * plain writes ran, in the same transaction.
 */
export class GroupCommit implements CommittedWrites {
  private readonly db: Db;
  /** The connection's durability mode: NORMAL for the commit, FULL for every other write. */
  private readonly sync: SyncMode;
  private readonly onError: (error: unknown) => void;
  private queue: Queued[] = [];
  /** The commit at the end of this turn, once a write that must not wait longer is queued. */
  private scheduled: NodeJS.Immediate | undefined;
  /** The commit DEFERRED_COMMIT_MS after the first of the queued writes no caller waits for. */
  private deferred: NodeJS.Timeout | undefined;

  /**
   * The whole-batch transaction, made once, run as BEGIN IMMEDIATE: it takes the write lock before its first statement
   * (a plain write may read first: a channel's success reads the channels), waiting out another process's write (the
   * CLI's) within the busy timeout. Begun as a read, the transaction would have to upgrade at its first write, and an
   * upgrade SQLite refuses at once with SQLITE_BUSY while another connection writes: the batch, charges and all, failed.
   */
  private readonly writeAll: Transaction<(batch: readonly Queued[]) => void>;

  constructor(db: Db, onError: (error: unknown) => void) {
    this.db = db;
    this.sync = syncModeOf(db);
    this.onError = onError;
    this.writeAll = db.transaction((batch: readonly Queued[]) => {
      let joined: Map<JoinedWrite<unknown>, unknown[]> | undefined;
      for (const queued of batch) {
        // Plain writes run in queue order, before the joined kinds write their items.
        if (queued.kind === plainWrite) {
          (queued.item as () => void)();
          continue;
        }
        joined ??= new Map();
        const items = joined.get(queued.kind);
        if (items === undefined) joined.set(queued.kind, [queued.item]);
        else items.push(queued.item);
      }
      if (joined !== undefined) for (const [kind, items] of joined) kind.writeMany(items);
      // Read while the transaction holds its locks: the caches checked in the next millisecond read it in none of their own.
      readDataVersionInTransaction(db);
    });
  }

  /**
   * Queues `write` (synchronous SQLite work) for the commit at the end of this turn; inside a transaction under way it
   * runs at once, as part of it, so a caller that makes a charge atomic with its own writes keeps it atomic.
   */
  defer(write: () => void): void {
    this.deferItem(plainWrite, write);
  }

  /**
   * Queues an item of a joined kind for a commit within DEFERRED_COMMIT_MS (at the end of this turn when `endOfTurn`);
   * inside a transaction under way it is written at once.
   */
  deferItem<T>(kind: JoinedWrite<T>, item: T, endOfTurn = false): void {
    if (this.sync.inTransaction) writeItemNow(kind, item);
    else this.enqueue(kind, item, undefined, endOfTurn);
  }

  /** Queues `write` and resolves once it is committed (rejects with its error, or the commit's). */
  commit(write: () => void): Promise<void> {
    return this.commitItem(plainWrite, write);
  }

  /** Queues an item of a joined kind and resolves once it is committed (rejects with its error, or the commit's). */
  commitItem<T>(kind: JoinedWrite<T>, item: T): Promise<void> {
    if (this.sync.inTransaction) return writeItemNowAsync(kind, item);
    return new Promise((resolve, reject) => this.enqueue(kind, item, (error) => (error === undefined ? resolve() : reject(error))));
  }

  private enqueue<T>(kind: JoinedWrite<T>, item: T, done: Queued['done'], endOfTurn = true): void {
    this.queue.push({ kind: kind as JoinedWrite<unknown>, item, done });
    if (this.scheduled !== undefined) return;
    // Written with the next commit anyway: it waits for none of its own while the queue is short.
    if (done === undefined && !endOfTurn && this.queue.length < GROUP_COMMIT_LIMIT) {
      this.deferred ??= setTimeout(this.flushNow, DEFERRED_COMMIT_MS);
      return;
    }
    this.scheduled = setImmediate(this.flushNow);
  }

  /** `flush` bound once (the timers of every commit call it). */
  private readonly flushNow = (): void => this.flush();

  /** Writes waiting for their commit. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Commits every queued write now; never throws (failures go to `onError`). The commit runs with
   * `synchronous=NORMAL`: in WAL mode a committed transaction is in the WAL file (the kernel's page cache) when the
   * commit returns, so a crash of the process (`kill -9`) loses none of it, yet the commit does not wait for the disk
   * flush that only a power loss or a crash of the machine would need (the next FULL commit or checkpoint flushes it).
   * The connection stays at NORMAL until a write outside the group commit sets FULL back before it starts (`SyncMode`),
   * so commits that follow one another run no PRAGMA.
   */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.deferred) clearTimeout(this.deferred);
    this.deferred = undefined;
    if (this.queue.length === 0) return;
    // A closed database (a write queued as the gateway stops) fails each write below, as any failed commit does.
    this.sync.relaxedFor(this.commitAll);
  }

  /** `commitQueue` bound once (the flush passes it on every commit). */
  private readonly commitAll = (): void => this.commitQueue();

  private commitQueue(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, GROUP_COMMIT_LIMIT);
      if (this.commitWhole(batch)) continue;
      const failed = new Map<number, unknown>();
      let commitError: unknown;
      try {
        // IMMEDIATE as the whole batch's (see writeAll); each write in a savepoint of its own (inside a transaction,
        // every variant of a transaction function is a savepoint).
        this.db
          .transaction(() => {
            batch.forEach((queued, index) => {
              try {
                this.db.transaction(() => queued.kind.writeOne(queued.item)).immediate();
              } catch (error) {
                failed.set(index, error);
              }
            });
          })
          .immediate();
      } catch (error) {
        commitError = error ?? new Error('the commit failed');
      }
      this.settle(batch);
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
   * write is SQLite work that may run twice (once undone). Items of a joined kind are settled once, after the outcome.
   */
  private commitWhole(batch: Queued[]): boolean {
    try {
      this.writeAll.immediate(batch);
    } catch {
      return false;
    }
    this.settle(batch);
    for (const item of batch) item.done?.();
    return true;
  }

  /** Tells each item's kind that the item is committed or failed for good. */
  private settle(batch: readonly Queued[]): void {
    for (const queued of batch) {
      try {
        queued.kind.settled(queued.item);
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

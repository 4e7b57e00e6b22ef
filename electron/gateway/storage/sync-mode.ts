// A connection's durability mode: `synchronous=FULL` for every write but the bookkeeping group commit's (`NORMAL`), switched only when the kind of write changes, not twice around every group commit; and whether a transaction is under way, known without a call into SQLite.
import Database from 'better-sqlite3';

type Db = Database.Database;
type Mode = 'NORMAL' | 'FULL';

/** Statement text that starts a transaction although SQLite calls it read-only (`BEGIN`, a `SAVEPOINT` outside one). */
const STARTS_TRANSACTION = /^\s*(BEGIN|SAVEPOINT)\b/i;
/** SQL given to `exec` that may start a transaction anywhere in it (a trigger's `BEGIN` too: a false alarm costs one native check). */
const MAY_START_TRANSACTION = /\b(BEGIN|SAVEPOINT)\b/i;

/** The connections whose every write path is guarded (`guardConnection`), by connection. */
const guarded = new WeakMap<Db, SyncMode>();

/**
 * What the group commit asks of its connection: `relaxedFor(commit)` runs its transaction with `synchronous=NORMAL`.
 * On a guarded connection (every connection `storage/database.ts` opens) the mode then stays `NORMAL` and the next
 * write outside a group commit (a statement that writes, a transaction, `exec`) sets `FULL` back before it starts: so
 * back-to-back group commits run no PRAGMA at all, and every other write still commits with `FULL`. On a connection
 * opened otherwise, `FULL` is set back right after the commit.
 */
export class SyncMode {
  private readonly db: Db;
  /** Whether every write outside a group commit passes `beforeWrite` (else `FULL` is set back after each commit). */
  private readonly guarding: boolean;
  /** True while the connection is left at `NORMAL` by a group commit. */
  private relaxed = false;
  /** True while a group commit's transaction runs: its own writes keep `NORMAL`. */
  private committing = false;
  /** Transaction functions (`db.transaction`) running now on a guarded connection, nested ones included. */
  private running = 0;
  /** Set when a transaction may have been started otherwise (`exec`, a `BEGIN` statement): then SQLite is asked. */
  private untracked = false;

  constructor(db: Db, guarding: boolean) {
    this.db = db;
    this.guarding = guarding;
  }

  /**
   * Before a write outside the group commit starts: `FULL` again if a group commit left `NORMAL`. Inside a transaction
   * under way nothing changes (SQLite refuses it there, and its start was guarded). Throws when the mode cannot be set
   * (a closed connection), so no write goes on at `NORMAL`.
   */
  beforeWrite(): void {
    if (this.relaxed && !this.committing && !this.inTransaction) this.set('FULL');
  }

  /**
   * Whether a transaction is under way on the connection, as `db.inTransaction` says, which is a call into the native
   * binding (a few hundred ns, and the group commit asks it for every charge and count). On a guarded connection every
   * transaction starts through a transaction function (counted here) or through `exec` or a `BEGIN`/`SAVEPOINT`
   * statement (noted here): with neither, none is under way and SQLite is not asked.
   */
  get inTransaction(): boolean {
    if (this.guarding && this.running === 0 && !this.untracked) return false;
    const under = this.db.inTransaction;
    // What `exec` or a statement started has ended: until the next one, the count alone answers again.
    if (!under && this.running === 0) this.untracked = false;
    return under;
  }

  /** A guarded connection's transaction function starts (see `guardConnection`); `transactionEnded` once it returned or threw. */
  transactionStarted(): void {
    this.running += 1;
  }

  transactionEnded(): void {
    this.running -= 1;
  }

  /** A guarded connection's `exec` or statement may have started a transaction that no transaction function counts. */
  mayHaveStarted(): void {
    this.untracked = true;
  }

  /**
   * Runs `commit` (the group commit's transaction) with `synchronous=NORMAL` when it can be set (not on a closed
   * connection, nor inside a transaction under way, which the commit then joins at that transaction's mode).
   */
  relaxedFor(commit: () => void): void {
    if (!this.relaxed) this.trySet('NORMAL');
    this.committing = true;
    try {
      commit();
    } finally {
      this.committing = false;
      if (!this.guarding && this.relaxed) this.trySet('FULL');
    }
  }

  /** Wraps a compiled statement's ways of running so a statement that may write passes `beforeWrite` first. */
  guard(statement: Database.Statement): void {
    const starts = STARTS_TRANSACTION.test(statement.source);
    if (statement.readonly && !starts) return;
    const beforeWrite = starts
      ? (): void => {
          this.beforeWrite();
          this.mayHaveStarted();
        }
      : (): void => this.beforeWrite();
    for (const name of ['run', 'get', 'all', 'iterate'] as const) {
      const method = statement[name] as (...params: unknown[]) => unknown;
      function guardedMethod(this: Database.Statement, ...params: unknown[]): unknown {
        beforeWrite();
        return method.apply(this, params);
      }
      (statement as unknown as Record<string, unknown>)[name] = guardedMethod;
    }
  }

  private trySet(mode: Mode): void {
    try {
      this.set(mode);
    } catch {
      // A closed connection (its writes fail on their own), or a transaction under way (the commit joins it).
    }
  }

  /** Compiled afresh each time: SQLite applies this PRAGMA as it compiles it (a kept statement run again may not). */
  private set(mode: Mode): void {
    (Database.prototype.prepare.call(this.db, `PRAGMA synchronous = ${mode}`) as Database.Statement<[]>).run();
    this.relaxed = mode === 'NORMAL';
  }
}

/**
 * Guards every write path of a new connection (its transactions and `exec` here; its statements as `cacheStatements`
 * compiles them, through the returned mode's `guard`), so a group commit may leave the connection at `NORMAL`. Not
 * guarded: `db.pragma()`, which better-sqlite3 compiles without `prepare` (the gateway writes a pragma only inside a
 * transaction, whose start was guarded), and a `BEGIN` written after a leading SQL comment (none is).
 */
export function guardConnection(db: Db): SyncMode {
  const mode = new SyncMode(db, true);
  guarded.set(db, mode);
  const exec = db.exec.bind(db);
  function guardedExec(source: string): Db {
    mode.beforeWrite();
    if (MAY_START_TRANSACTION.test(source)) mode.mayHaveStarted();
    return exec(source);
  }
  db.exec = guardedExec;
  const transaction = db.transaction.bind(db);
  function guardedTransaction(fn: (...params: unknown[]) => unknown): unknown {
    const made = transaction(fn);
    const before = (variant: (...params: unknown[]) => unknown) =>
      function (this: unknown, ...params: unknown[]): unknown {
        mode.beforeWrite();
        mode.transactionStarted();
        try {
          return variant.apply(this, params);
        } catch (error) {
          // A rollback that failed too would leave the transaction open: SQLite is asked until it says none is.
          mode.mayHaveStarted();
          throw error;
        } finally {
          mode.transactionEnded();
        }
      };
    const variants = {
      default: before(made),
      deferred: before(made.deferred),
      immediate: before(made.immediate),
      exclusive: before(made.exclusive),
    };
    const properties = { ...variants, database: db };
    for (const variant of Object.values(variants)) Object.assign(variant, properties);
    return variants.default;
  }
  db.transaction = guardedTransaction as typeof db.transaction;
  return mode;
}

/** The durability mode of `db`: the one `guardConnection` made, or (a connection opened otherwise) one that sets `FULL` back after each commit. */
export function syncModeOf(db: Db): SyncMode {
  return guarded.get(db) ?? new SyncMode(db, false);
}

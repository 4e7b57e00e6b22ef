// Keeps what a repository read of a small, rarely written table until the table is written through this process or another connection commits.
import { performance } from 'node:perf_hooks';
import type { Db } from './database.ts';

/** How many times a table was written through this process: a cache made before a write is stale after it. */
interface Generation {
  count: number;
}

/** The write count of each table, per connection; a cache holds its table's own, so its check looks nothing up. */
const generations = new WeakMap<Db, Map<string, Generation>>();

/** The write count of `table` on `db`: made at 0 when first asked, then the same one for every cache of it and `noteWrite`. */
function generationOf(db: Db, table: string): Generation {
  let tables = generations.get(db);
  if (!tables) {
    tables = new Map();
    generations.set(db, tables);
  }
  let generation = tables.get(table);
  if (!generation) {
    generation = { count: 0 };
    tables.set(table, generation);
  }
  return generation;
}

/**
 * How long a connection's `data_version` read stands: a cache checked within this long of the last read trusts it, so
 * what another connection commits (the CLI while `serve` runs) shows from the first check this long after it. A read
 * is a read transaction (file locks: about 7 µs here on a quiet database, 20–30 µs a read in profiles of a relayed
 * load): read once per event-loop turn, as before, it cost a call at c=1 one each (8.0 file-lock calls per simulated
 * call at c=1 then, 6.4 after), and about one call in twenty at c=32.
 */
export const DATA_VERSION_STANDS_MS = 1;

/** The last `data_version` read of each connection, and when (the monotonic clock's milliseconds, never the gateway's testing clock). */
const lastVersions = new WeakMap<Db, { version: number; readAt: number }>();

/** The last `data_version` read of `db` (made on the first ask, as never read). */
function lastVersionOf(db: Db): { version: number; readAt: number } {
  let last = lastVersions.get(db);
  if (last === undefined) {
    last = { version: 0, readAt: Number.NEGATIVE_INFINITY };
    lastVersions.set(db, last);
  }
  return last;
}

/** Reads `db`'s `data_version` into `last`, as read at `now`. */
function readVersion(db: Db, last: { version: number; readAt: number }, now: number): void {
  last.version = (db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
  last.readAt = now;
}

/** SQLite's `data_version` of `db`, read again once DATA_VERSION_STANDS_MS passed since the last read. */
function dataVersionOf(db: Db): number {
  const now = performance.now();
  const last = lastVersionOf(db);
  if (now - last.readAt >= DATA_VERSION_STANDS_MS) readVersion(db, last, now);
  return last.version;
}

/**
 * Reads `db`'s `data_version` inside the transaction under way (the group commit's, before it commits), for the caches
 * checked within DATA_VERSION_STANDS_MS to trust instead of reading it again: the transaction holds the locks that a
 * read of its own takes and gives back (two file-lock calls, four after another connection's commit), so this read
 * costs a statement step only. Read under the write lock (the group commit's transaction is IMMEDIATE), it is the
 * latest: no other connection commits until it ends. A check within DATA_VERSION_STANDS_MS of a commit (a lone
 * client's next call, often) then reads none of its own.
 */
export function readDataVersionInTransaction(db: Db): void {
  if (!db.inTransaction) throw new Error('readDataVersionInTransaction reads inside a transaction under way');
  readVersion(db, lastVersionOf(db), performance.now());
}

/** Tells the caches of `table` that it changed; every repository method that writes the table calls it. */
export function noteWrite(db: Db, table: string): void {
  generationOf(db, table).count += 1;
}

/**
 * A value read from `table` (by `read`), read again only when the table was written through this connection
 * (`noteWrite`) or another connection committed anything (SQLite's `data_version` moved: the CLI changing a
 * channel while `serve` runs, for one). Checking costs a clock read, and a pragma step at most once per
 * DATA_VERSION_STANDS_MS, instead of the query it replaces.
 */
export class ReadCache<T> {
  private readonly db: Db;
  /** Its table's write count, held so that a check reads it at once. */
  private readonly writes: Generation;
  private readonly read: () => T;
  private kept: { value: T; generation: number; dataVersion: number } | undefined;

  constructor(db: Db, table: string, read: () => T) {
    this.db = db;
    this.writes = generationOf(db, table);
    this.read = read;
  }

  /** Tells every cache of this table that it changed (see `noteWrite`); call it from each method that writes the table. */
  changed(): void {
    this.writes.count += 1;
  }

  get(): T {
    const generation = this.writes.count;
    const dataVersion = dataVersionOf(this.db);
    const kept = this.kept;
    if (kept && kept.generation === generation && kept.dataVersion === dataVersion) return kept.value;
    const value = this.read();
    this.kept = { value, generation, dataVersion };
    return value;
  }
}

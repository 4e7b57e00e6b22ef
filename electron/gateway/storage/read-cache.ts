// Keeps what a repository read of a small, rarely written table until the table is written through this process or another connection commits.
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

/** `data_version` of each connection as read in this event-loop turn (forgotten at its end). */
const versionsThisTurn = new Map<Db, number>();

/** Forgets the turn's `data_version` reads (one function for every turn, not a closure made per turn). */
function forgetVersions(): void {
  versionsThisTurn.clear();
}

/**
 * SQLite's `data_version` of `db`, read at most once per event-loop turn: every cache checked while one request is
 * handled shares one read (what another process commits meanwhile shows from the next turn, as if it came a moment later).
 */
function dataVersionOf(db: Db): number {
  let version = versionsThisTurn.get(db);
  if (version === undefined) {
    version = (db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
    if (versionsThisTurn.size === 0) setImmediate(forgetVersions).unref();
    versionsThisTurn.set(db, version);
  }
  return version;
}

/** Tells the caches of `table` that it changed; every repository method that writes the table calls it. */
export function noteWrite(db: Db, table: string): void {
  generationOf(db, table).count += 1;
}

/**
 * A value read from `table` (by `read`), read again only when the table was written through this connection
 * (`noteWrite`) or another connection committed anything (SQLite's `data_version` moved: the CLI changing a
 * channel while `serve` runs, for one). Checking costs one pragma step instead of the query it replaces.
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

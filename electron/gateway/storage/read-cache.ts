// Keeps what a repository read of a small, rarely written table until the table is written through this process or another connection commits.
import type { Db } from './database.ts';

/** Writes of each table through this process, per connection: a cache made before a write is stale after it. */
const generations = new WeakMap<Db, Map<string, number>>();

const generationOf = (db: Db, table: string): number => generations.get(db)?.get(table) ?? 0;

/** `data_version` of each connection as read in this event-loop turn (forgotten at its end). */
const versionsThisTurn = new Map<Db, number>();

/**
 * SQLite's `data_version` of `db`, read at most once per event-loop turn: every cache checked while one request is
 * handled shares one read (what another process commits meanwhile shows from the next turn, as if it came a moment later).
 */
function dataVersionOf(db: Db): number {
  let version = versionsThisTurn.get(db);
  if (version === undefined) {
    version = (db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
    if (versionsThisTurn.size === 0) setImmediate(() => versionsThisTurn.clear()).unref();
    versionsThisTurn.set(db, version);
  }
  return version;
}

/** Tells the caches of `table` that it changed; every repository method that writes the table calls it. */
export function noteWrite(db: Db, table: string): void {
  let tables = generations.get(db);
  if (!tables) {
    tables = new Map();
    generations.set(db, tables);
  }
  tables.set(table, generationOf(db, table) + 1);
}

/**
 * A value read from `table` (by `read`), read again only when the table was written through this connection
 * (`noteWrite`) or another connection committed anything (SQLite's `data_version` moved: the CLI changing a
 * channel while `serve` runs, for one). Checking costs one pragma step instead of the query it replaces.
 */
export class ReadCache<T> {
  private readonly db: Db;
  private readonly table: string;
  private readonly read: () => T;
  private kept: { value: T; generation: number; dataVersion: number } | undefined;

  constructor(db: Db, table: string, read: () => T) {
    this.db = db;
    this.table = table;
    this.read = read;
  }

  /** Tells every cache of this table that it changed (see `noteWrite`); call it from each method that writes the table. */
  changed(): void {
    noteWrite(this.db, this.table);
  }

  get(): T {
    const generation = generationOf(this.db, this.table);
    const dataVersion = dataVersionOf(this.db);
    const kept = this.kept;
    if (kept && kept.generation === generation && kept.dataVersion === dataVersion) return kept.value;
    const value = this.read();
    this.kept = { value, generation, dataVersion };
    return value;
  }
}

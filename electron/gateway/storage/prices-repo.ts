// Repository of the owner's prices: one row per model that overrides its documented price or adds one.
import type { Db } from './database.ts';
import { ReadCache } from './read-cache.ts';

/** A stored price, in USD per million tokens and per call. */
export interface PriceRecord {
  model: string;
  input_per_mtok: number;
  output_per_mtok: number;
  per_call: number;
  updated_at: number;
}

export class PricesRepo {
  private readonly db: Db;
  /** The owner's rows by model (a bounded table, read on every charge), read again only after a change. */
  private readonly byModel: ReadCache<ReadonlyMap<string, Readonly<PriceRecord>>>;
  constructor(db: Db) {
    this.db = db;
    this.byModel = new ReadCache(db, 'prices', () => new Map(this.list().map((record) => [record.model, Object.freeze(record)])));
  }

  /** Every owner's price, by model name. */
  list(): PriceRecord[] {
    return this.db.prepare('SELECT * FROM prices ORDER BY model').all() as PriceRecord[];
  }

  find(model: string): Readonly<PriceRecord> | undefined {
    return this.byModel.get().get(model);
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM prices').get() as { n: number }).n;
  }

  /** Writes the row of `record.model`, replacing any. */
  put(record: PriceRecord): void {
    this.byModel.changed();
    this.db
      .prepare(
        `INSERT INTO prices (model, input_per_mtok, output_per_mtok, per_call, updated_at)
         VALUES (@model, @input_per_mtok, @output_per_mtok, @per_call, @updated_at)
         ON CONFLICT (model) DO UPDATE SET input_per_mtok = excluded.input_per_mtok, output_per_mtok = excluded.output_per_mtok,
           per_call = excluded.per_call, updated_at = excluded.updated_at`,
      )
      .run(record);
  }

  /** Removes the row of `model`; true when there was one. */
  delete(model: string): boolean {
    this.byModel.changed();
    return this.db.prepare('DELETE FROM prices WHERE model = ?').run(model).changes > 0;
  }
}

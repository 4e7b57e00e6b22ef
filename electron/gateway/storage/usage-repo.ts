// Repository of the usage ledger: records billed calls and charges the token in the same transaction; rolls old records up into daily totals.
import { dayNumberOf } from '../time.ts';
import type { Db } from './database.ts';
import { groupRuns, type Grouping } from './run-groups.ts';
import { CHARGES_BUCKET } from './usage-stats-repo.ts';

/** One billed call. */
export interface UsageRecord {
  account_id: number;
  token_id: string;
  endpoint: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  amount_micros: number;
  created_at: number;
}

/** The day totals one commit adds for one UTC day, token and model. */
interface DayTotals {
  /** Any record's time in that day (the statement computes the day from it, as for one record). */
  created_at: number;
  account_id: number;
  token_id: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  amount_micros: number;
}

/** Records one INSERT writes at most: a commit's records go in statements of this many rows, bound by position (one statement per row, its fields bound by name, was most of a charge's share of the commit). */
export const RECORDS_PER_INSERT = 16;

/** The columns of a record, in the order each INSERT below takes them. */
const RECORD_COLUMNS = 'account_id, token_id, endpoint, model, input_tokens, output_tokens, amount_micros, created_at';

/** The INSERT of `rows` records (1 to RECORDS_PER_INSERT), its values in the order `insertAll` binds them. */
const insertOf = (rows: number): string =>
  `INSERT INTO usage_records (${RECORD_COLUMNS}) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
const INSERTS = Array.from({ length: RECORDS_PER_INSERT + 1 }, (_, rows) => (rows === 0 ? '' : insertOf(rows)));

/**
 * The INSERT of `rows` records (1 to RECORDS_PER_INSERT) of one account, token, endpoint and model (a commit's usual
 * case): those four bound once, then each record's tokens, amount and time, inserted in their order (by the place each
 * is given). better-sqlite3 binds a value in about 0.1 µs, a string more: 13 such records took 11 µs, against 17 µs
 * with every value bound.
 */
const sharedInsertOf = (rows: number): string =>
  `INSERT INTO usage_records (${RECORD_COLUMNS}) SELECT ?, ?, ?, ?, column2, column3, column4, column5 FROM (VALUES ${Array.from(
    { length: rows },
    (_, place) => `(${place}, ?, ?, ?, ?)`,
  ).join(', ')}) ORDER BY column1`;
const SHARED_INSERTS = Array.from({ length: RECORDS_PER_INSERT + 1 }, (_, rows) => (rows === 0 ? '' : sharedInsertOf(rows)));

/** Whether the records of `entries` from `start` to `end` share their account, token, endpoint and model. */
function shareTheirCall(entries: readonly UsageRecord[], start: number, end: number): boolean {
  const first = entries[start]!;
  for (let index = start + 1; index < end; index++) {
    const entry = entries[index]!;
    if (
      entry.account_id !== first.account_id ||
      entry.token_id !== first.token_id ||
      entry.endpoint !== first.endpoint ||
      entry.model !== first.model
    )
      return false;
  }
  return true;
}

/**
 * Inserts `entries` in statements of RECORDS_PER_INSERT rows (the last one shorter), in order; a statement's records of
 * one account, token, endpoint and model bind those once (`sharedInsertOf`).
 */
function insertAll(db: Db, entries: readonly UsageRecord[]): void {
  for (let start = 0; start < entries.length; start += RECORDS_PER_INSERT) {
    const end = Math.min(entries.length, start + RECORDS_PER_INSERT);
    const values: (string | number)[] = [];
    const shared = shareTheirCall(entries, start, end);
    if (shared) {
      const first = entries[start]!;
      values.push(first.account_id, first.token_id, first.endpoint, first.model);
    }
    for (let index = start; index < end; index++) {
      const entry = entries[index]!;
      if (!shared) values.push(entry.account_id, entry.token_id, entry.endpoint, entry.model);
      values.push(entry.input_tokens, entry.output_tokens, entry.amount_micros, entry.created_at);
    }
    db.prepare((shared ? SHARED_INSERTS : INSERTS)[end - start]!).run(values);
  }
}

/** Records by (day, token, model): their day totals. */
const BY_DAY: Grouping<UsageRecord, DayTotals> = {
  belongs: (totals, entry) =>
    totals.token_id === entry.token_id && totals.model === entry.model && dayNumberOf(totals.created_at) === dayNumberOf(entry.created_at),
  keyOf: (entry) => `${dayNumberOf(entry.created_at)}\n${entry.token_id}\n${entry.model}`,
  start: (entry) => ({
    created_at: entry.created_at,
    account_id: entry.account_id,
    token_id: entry.token_id,
    model: entry.model,
    calls: 1,
    input_tokens: entry.input_tokens,
    output_tokens: entry.output_tokens,
    amount_micros: entry.amount_micros,
  }),
  add: (totals, entry) => {
    totals.calls += 1;
    totals.input_tokens += entry.input_tokens;
    totals.output_tokens += entry.output_tokens;
    totals.amount_micros += entry.amount_micros;
  },
};

/**
 * The upsert of one (day, token, model)'s charges into the dashboard's totals (`stats_daily`, the charges' bucket beside
 * the counted calls' rows of that day, token and model), its values bound by position: a record's time (the day is
 * computed from it), token, model, account, calls, input and output tokens, amount.
 */
const ADD_TO_DAY = `INSERT INTO stats_daily (day, token_id, model, bucket, account_id, calls, errors, billed, input_tokens, output_tokens, amount_micros)
  VALUES (date(? / 1000, 'unixepoch'), ?, ?, ${CHARGES_BUCKET}, ?, 0, 0, ?, ?, ?, ?)
  ON CONFLICT (day, token_id, model, bucket) DO UPDATE SET
    billed = billed + excluded.billed,
    input_tokens = input_tokens + excluded.input_tokens,
    output_tokens = output_tokens + excluded.output_tokens,
    amount_micros = amount_micros + excluded.amount_micros`;

export class UsageRepo {
  private readonly db: Db;
  /** `recordAll`'s transaction, made once (making it on every charge was a visible share of the charge). */
  private readonly recordAtomically: (entries: readonly UsageRecord[]) => void;
  constructor(db: Db) {
    this.db = db;
    // BEGIN IMMEDIATE, as every write transaction of the gateway (the lint's rule on `.transaction(...)()` says why).
    this.recordAtomically = db.transaction((entries: readonly UsageRecord[]) => this.appendAll(entries)).immediate;
  }

  /**
   * Appends records (one per call) and adds their amounts to each token's usage (one UPDATE per token) and to the day's
   * totals (one upsert per day, token and model), inside the caller's transaction, with no savepoint of its own: for a
   * caller that rolls its whole transaction back when this throws (the group commit's `writeMany`, whose failed commit is
   * then written again one charge at a time). `recordAll` is the same, atomic on its own.
   */
  appendAll(entries: readonly UsageRecord[]): void {
    if (!this.db.inTransaction)
      throw new Error('UsageRepo.appendAll writes inside a transaction under way (recordAll is atomic on its own)');
    // One record per call; the tokens' amounts and the day totals once per token and per (day, token, model).
    insertAll(this.db, entries);
    const spent = new Map<string, number>();
    for (const entry of entries) spent.set(entry.token_id, (spent.get(entry.token_id) ?? 0) + entry.amount_micros);
    const charge = this.db.prepare('UPDATE tokens SET used_micros = used_micros + ? WHERE token_id = ?');
    // A token charged nothing (a free or unpriced model) keeps its amount: no statement runs for it.
    for (const [tokenId, micros] of spent) if (micros !== 0) charge.run(micros, tokenId);
    // The dashboard's per-day totals, kept as each call is charged (never rebuilt from the ledger).
    const addToDay = this.db.prepare(ADD_TO_DAY);
    for (const totals of groupRuns(entries, BY_DAY))
      addToDay.run(
        totals.created_at,
        totals.token_id,
        totals.model,
        totals.account_id,
        totals.calls,
        totals.input_tokens,
        totals.output_tokens,
        totals.amount_micros,
      );
  }

  /** Appends a record, adds its amount to the token's usage and to the day's totals, atomically. */
  record(entry: UsageRecord): void {
    this.recordAtomically([entry]);
  }

  /**
   * Appends records (one per call), atomically; adds their amounts to each token's usage in one UPDATE per token and to
   * the day's totals in one upsert per (day, token, model): the same stored totals as recording them one by one.
   */
  recordAll(entries: readonly UsageRecord[]): void {
    this.recordAtomically(entries);
  }

  /**
   * Rolls up old records into `usage_daily` (one row per UTC day, token, endpoint and model) and deletes them, in one
   * transaction; returns how many it rolled up. It looks at the `limit` oldest records by id (the order they were
   * written, so the old ones come first; a charge updates no index by time) and takes those created before `before`, or
   * after `ahead` (written while the clock was set ahead: they would otherwise hold their place at the front for as long).
   * Tokens' spent amounts (`tokens.used_micros`) are not touched: they already include every record.
   */
  rollUp(before: number, limit: number, ahead: number): number {
    return this.db
      .transaction(() => {
        const last = this.db
          .prepare(
            `SELECT MAX(id) AS id, COUNT(*) AS n FROM (SELECT id, created_at FROM usage_records ORDER BY id LIMIT @limit)
            WHERE created_at < @before OR created_at > @ahead`,
          )
          .get({ limit, before, ahead }) as { id: number | null; n: number };
        if (last.id === null) return 0;
        this.db
          .prepare(
            `INSERT INTO usage_daily (day, account_id, token_id, endpoint, model, calls, input_tokens, output_tokens, amount_micros)
           SELECT date(created_at / 1000, 'unixepoch'), account_id, token_id, endpoint, model,
                  COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(amount_micros)
             FROM usage_records WHERE id <= @last AND (created_at < @before OR created_at > @ahead)
            GROUP BY date(created_at / 1000, 'unixepoch'), account_id, token_id, endpoint, model
           ON CONFLICT (day, token_id, endpoint, model) DO UPDATE SET
             calls = calls + excluded.calls,
             input_tokens = input_tokens + excluded.input_tokens,
             output_tokens = output_tokens + excluded.output_tokens,
             amount_micros = amount_micros + excluded.amount_micros`,
          )
          .run({ last: last.id, before, ahead });
        this.db
          .prepare('DELETE FROM usage_records WHERE id <= @last AND (created_at < @before OR created_at > @ahead)')
          .run({ last: last.id, before, ahead });
        return last.n;
      })
      .immediate();
  }
}

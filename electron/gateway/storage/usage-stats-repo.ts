// Repository of the dashboard's per-day totals (`stats_daily`): counts each call in its latency bucket, and reads totals by day, model, token and account.
import type { Db } from './database.ts';
import { groupRuns, type Grouping } from './run-groups.ts';

/** One finished API call, as the dashboard counts it. */
export interface CountedCall {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  account_id: number;
  token_id: string;
  model: string;
  bucket: number;
  error: boolean;
}

/** Raw totals of one group (amount in micro-units). */
export interface StatsRow {
  key: string;
  label: string;
  calls: number;
  errors: number;
  billed: number;
  input_tokens: number;
  output_tokens: number;
  amount_micros: number;
}

/** What a breakdown groups by, with the SQL that names each group. */
const GROUPINGS = {
  day: { key: 's.day', label: 's.day', join: '' },
  model: { key: 's.model', label: 's.model', join: '' },
  token: {
    key: 's.token_id',
    label: "COALESCE(a.name || ' / ' || COALESCE(NULLIF(t.name, ''), t.token_hint), s.token_id)",
    join: 'LEFT JOIN tokens t ON t.token_id = s.token_id LEFT JOIN accounts a ON a.id = t.account_id',
  },
  account: { key: 'a.name', label: 'a.name', join: 'JOIN accounts a ON a.id = s.account_id' },
} as const;

/** A grouping of the totals. */
export type StatsGrouping = keyof typeof GROUPINGS;

/** The bucket of a day's charges for one token and model, beside its counted calls' latency buckets (0 and up) in `stats_daily`. */
export const CHARGES_BUCKET = -1;

/** A group of counted calls: one day, token, model and latency bucket, and its counts. */
interface CountedGroup {
  call: CountedCall;
  calls: number;
  errors: number;
}

/** Counted calls by (day, token, model, latency bucket): their counts. */
const BY_BUCKET: Grouping<CountedCall, CountedGroup> = {
  belongs: (group, call) =>
    group.call.day === call.day &&
    group.call.token_id === call.token_id &&
    group.call.model === call.model &&
    group.call.bucket === call.bucket,
  keyOf: (call) => `${call.day}\n${call.token_id}\n${call.model}\n${call.bucket}`,
  start: (call) => ({ call, calls: 1, errors: call.error ? 1 : 0 }),
  add: (group, call) => {
    group.calls += 1;
    group.errors += call.error ? 1 : 0;
  },
};

/** The upsert of one group of counted calls, its values bound by position (day, token, model, bucket, account, calls, errors). */
const COUNT_CALLS = `INSERT INTO stats_daily (day, token_id, model, bucket, account_id, calls, errors, billed, input_tokens, output_tokens, amount_micros)
  VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0)
  ON CONFLICT (day, token_id, model, bucket) DO UPDATE SET calls = calls + excluded.calls, errors = errors + excluded.errors`;

export class UsageStatsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Counts one call in its day, token, model and latency bucket. */
  countCall(call: CountedCall): void {
    this.countCalls([call]);
  }

  /** Counts calls in their days, tokens, models and latency buckets: one upsert per group, the same totals as one by one. */
  countCalls(calls: readonly CountedCall[]): void {
    const upsert = this.db.prepare(COUNT_CALLS);
    for (const { call, calls: count, errors } of groupRuns(calls, BY_BUCKET))
      upsert.run(call.day, call.token_id, call.model, call.bucket, call.account_id, count, errors);
  }

  /** Totals since `fromDay` (inclusive) by `grouping`, biggest spend first, then most calls; at most `limit` rows. */
  totals(grouping: StatsGrouping, fromDay: string, limit: number): StatsRow[] {
    const { key, label, join } = GROUPINGS[grouping];
    return this.db
      .prepare(
        `SELECT ${key} AS key, ${label} AS label, SUM(s.calls) AS calls, SUM(s.errors) AS errors, SUM(s.billed) AS billed,
                SUM(s.input_tokens) AS input_tokens, SUM(s.output_tokens) AS output_tokens, SUM(s.amount_micros) AS amount_micros
           FROM stats_daily AS s
           ${join}
          WHERE s.day >= @fromDay
          GROUP BY ${key}
          ORDER BY amount_micros DESC, calls DESC, key
          LIMIT @limit`,
      )
      .all({ fromDay, limit }) as StatsRow[];
  }

  /** Calls per latency bucket since `fromDay` (inclusive). */
  buckets(fromDay: string): { bucket: number; calls: number }[] {
    return this.db
      .prepare('SELECT bucket, SUM(calls) AS calls FROM stats_daily WHERE day >= ? AND bucket >= 0 GROUP BY bucket ORDER BY bucket')
      .all(fromDay) as { bucket: number; calls: number }[];
  }
}

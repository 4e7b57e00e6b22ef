// Repository of the dashboard's per-day totals: counts each call in its latency bucket, and reads totals by day, model, token and account.
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

/** Counted calls by (day, token, model, latency bucket): their counts. */
const BY_BUCKET: Grouping<CountedCall, CountedCall & { calls: number; errors: number }> = {
  belongs: (group, call) =>
    group.day === call.day && group.token_id === call.token_id && group.model === call.model && group.bucket === call.bucket,
  keyOf: (call) => `${call.day}\n${call.token_id}\n${call.model}\n${call.bucket}`,
  start: (call) => ({ ...call, calls: 1, errors: call.error ? 1 : 0 }),
  add: (group, call) => {
    group.calls += 1;
    group.errors += call.error ? 1 : 0;
  },
};

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
    const upsert = this.db.prepare(
      `INSERT INTO call_stats_daily (day, account_id, token_id, model, bucket, calls, errors)
       VALUES (@day, @account_id, @token_id, @model, @bucket, @calls, @errors)
       ON CONFLICT (day, token_id, model, bucket) DO UPDATE SET calls = calls + excluded.calls, errors = errors + excluded.errors`,
    );
    for (const { day, account_id, token_id, model, bucket, calls: count, errors } of groupRuns(calls, BY_BUCKET))
      upsert.run({ day, account_id, token_id, model, bucket, calls: count, errors });
  }

  /** Totals since `fromDay` (inclusive) by `grouping`, biggest spend first, then most calls; at most `limit` rows. */
  totals(grouping: StatsGrouping, fromDay: string, limit: number): StatsRow[] {
    const { key, label, join } = GROUPINGS[grouping];
    return this.db
      .prepare(
        `SELECT ${key} AS key, ${label} AS label, SUM(s.calls) AS calls, SUM(s.errors) AS errors, SUM(s.billed) AS billed,
                SUM(s.input_tokens) AS input_tokens, SUM(s.output_tokens) AS output_tokens, SUM(s.amount_micros) AS amount_micros
           FROM (SELECT day, account_id, token_id, model, calls, errors, 0 AS billed, 0 AS input_tokens, 0 AS output_tokens, 0 AS amount_micros
                   FROM call_stats_daily WHERE day >= @fromDay
                 UNION ALL
                 SELECT day, account_id, token_id, model, 0, 0, calls, input_tokens, output_tokens, amount_micros
                   FROM usage_stats_daily WHERE day >= @fromDay) AS s
           ${join}
          GROUP BY ${key}
          ORDER BY amount_micros DESC, calls DESC, key
          LIMIT @limit`,
      )
      .all({ fromDay, limit }) as StatsRow[];
  }

  /** Calls per latency bucket since `fromDay` (inclusive). */
  buckets(fromDay: string): { bucket: number; calls: number }[] {
    return this.db
      .prepare('SELECT bucket, SUM(calls) AS calls FROM call_stats_daily WHERE day >= ? GROUP BY bucket ORDER BY bucket')
      .all(fromDay) as { bucket: number; calls: number }[];
  }
}

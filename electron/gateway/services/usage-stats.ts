// The usage dashboard's numbers: counts each API call (latency bucket, error) and sums the kept per-day totals for a range of days.
import {
  LATENCY_BOUNDS_MS,
  USAGE_BREAKDOWN_ROWS,
  USAGE_MAX_DAYS,
  type LatencySummary,
  type UsageRow,
  type UsageStats,
  type UsageTotals,
} from '../../../shared/usage-stats.ts';
import { FIELD_LIMITS } from '../../../shared/field-limits.ts';
import { invalid } from '../errors.ts';
import { writeAtOnce, type DeferredWrites, type JoinedWrite } from '../storage/group-commit.ts';
import type { CountedCall, StatsRow, UsageStatsRepo } from '../storage/usage-stats-repo.ts';
import { DAY_MS, dayNumberOf, type Clock } from '../time.ts';
import { MICROS } from './tokens.ts';

/** A finished API call of a known token. */
export interface FinishedCall {
  at: number;
  accountId: number;
  tokenId: string;
  model: string | null;
  status: number;
  durationMs: number;
}

/** The latency bucket of a duration: the first bound it does not exceed, or one past the last. */
export function bucketOf(durationMs: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
}

/** The last day `dayOf` named, so the calls of one day share its text instead of formatting a date each. */
let lastDay = { day: 0, text: '1970-01-01' };

/** The UTC day (`YYYY-MM-DD`) of an epoch-ms time, the day the usage ledger's totals count it in (`dayNumberOf`). */
export function dayOf(at: number): string {
  const day = dayNumberOf(at);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

/** The upper bound of the bucket holding the `fraction` quantile, or null (no calls, or beyond the last bound). */
function percentile(buckets: number[], fraction: number): number | null {
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * fraction);
  let seen = 0;
  for (let index = 0; index < buckets.length; index += 1) {
    seen += buckets[index]!;
    if (seen >= rank) return LATENCY_BOUNDS_MS[index] ?? null;
  }
  return null;
}

const totalsOf = (row: StatsRow | undefined): UsageTotals => ({
  calls: row?.calls ?? 0,
  errors: row?.errors ?? 0,
  billedCalls: row?.billed ?? 0,
  inputTokens: row?.input_tokens ?? 0,
  outputTokens: row?.output_tokens ?? 0,
  spend: (row?.amount_micros ?? 0) / MICROS,
});

/** The sum of some days' totals. */
function sumOf(rows: StatsRow[]): StatsRow {
  const sum: StatsRow = { key: '', label: '', calls: 0, errors: 0, billed: 0, input_tokens: 0, output_tokens: 0, amount_micros: 0 };
  for (const row of rows) {
    sum.calls += row.calls;
    sum.errors += row.errors;
    sum.billed += row.billed;
    sum.input_tokens += row.input_tokens;
    sum.output_tokens += row.output_tokens;
    sum.amount_micros += row.amount_micros;
  }
  return sum;
}

const rowOf = (row: StatsRow): UsageRow => ({ key: String(row.key), label: String(row.label), ...totalsOf(row) });

export class UsageStatsService {
  private readonly repo: UsageStatsRepo;
  private readonly clock: Clock;
  private readonly writes: DeferredWrites;
  /** `writes`: the gateway's group commit, so a call's count shares a commit with other calls' bookkeeping instead of costing its own. */
  /** The calls of one group commit are counted together: one upsert per day, token, model and bucket. */
  private readonly counts: JoinedWrite<CountedCall> = {
    writeMany: (calls) => this.repo.countCalls(calls),
    writeOne: (call) => this.repo.countCall(call),
    settled: () => undefined,
  };
  constructor(repo: UsageStatsRepo, clock: Clock, writes: DeferredWrites = writeAtOnce) {
    this.repo = repo;
    this.clock = clock;
    this.writes = writes;
  }

  /** Counts a finished call in its day's totals (an error: status 400 or more); committed with the next group commit (within 2 ms: nobody waits for it). */
  count(call: FinishedCall): void {
    const counted = {
      day: dayOf(call.at),
      account_id: call.accountId,
      token_id: call.tokenId,
      model: (call.model ?? '').slice(0, FIELD_LIMITS.model),
      bucket: bucketOf(call.durationMs),
      error: call.status >= 400,
    };
    this.writes.deferItem(this.counts, counted);
  }

  /** The dashboard of the last `days` UTC days, today included (1 to USAGE_MAX_DAYS; a bad value is a 400). */
  summary(days: unknown): UsageStats {
    const count = days === undefined || days === '' ? 7 : Number(days);
    if (!Number.isInteger(count) || count < 1 || count > USAGE_MAX_DAYS)
      throw invalid(`days must be a whole number from 1 to ${USAGE_MAX_DAYS}`, 'days');
    const today = Date.parse(dayOf(this.clock.now()));
    const range = Array.from({ length: count }, (_, index) => dayOf(today - (count - 1 - index) * DAY_MS));
    const fromDay = range[0]!;
    this.writes.flush();
    const perDay = new Map(this.repo.totals('day', fromDay, count).map((row) => [String(row.key), row]));
    return {
      days: range.map((day) => ({ day, ...totalsOf(perDay.get(day)) })),
      totals: totalsOf(sumOf([...perDay.values()])),
      byModel: this.repo.totals('model', fromDay, USAGE_BREAKDOWN_ROWS).map(rowOf),
      byToken: this.repo.totals('token', fromDay, USAGE_BREAKDOWN_ROWS).map(rowOf),
      byAccount: this.repo.totals('account', fromDay, USAGE_BREAKDOWN_ROWS).map(rowOf),
      latency: this.latency(fromDay),
    };
  }

  private latency(fromDay: string): LatencySummary {
    const buckets = Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, () => 0);
    for (const { bucket, calls } of this.repo.buckets(fromDay)) if (bucket >= 0 && bucket < buckets.length) buckets[bucket] = calls;
    return { p50: percentile(buckets, 0.5), p90: percentile(buckets, 0.9), p99: percentile(buckets, 0.99), buckets };
  }
}

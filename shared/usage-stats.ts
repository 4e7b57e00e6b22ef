// Contract of the usage dashboard: per-day totals, breakdowns by model, token and account, latency percentiles and errors.

/** Longest range the dashboard asks for, in UTC days (today included). */
export const USAGE_MAX_DAYS = 90;
/** Ranges the console offers. */
export const USAGE_RANGES = [7, 30, 90] as const;
/** Upper bounds (ms) of the latency buckets calls are counted in; a call slower than the last bound counts in one more bucket. */
export const LATENCY_BOUNDS_MS = [50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000] as const;
/** Most rows a breakdown lists (the biggest spenders, then the most called). */
export const USAGE_BREAKDOWN_ROWS = 12;

/** Totals of a day, a model, a token or an account. */
export interface UsageTotals {
  /** API calls that named a token of this gateway (answered or refused). */
  calls: number;
  /** Those answered with an HTTP status of 400 or more. */
  errors: number;
  /** Billed calls and their tokens and amount (currency units, USD). */
  billedCalls: number;
  inputTokens: number;
  outputTokens: number;
  spend: number;
}

/** One day of the range (`YYYY-MM-DD`, UTC). */
export interface UsageDay extends UsageTotals {
  day: string;
}

/** One row of a breakdown. */
export interface UsageRow extends UsageTotals {
  /** The model name, token id or account name. */
  key: string;
  /** What the console shows: the model, `account / token name`, or the account. */
  label: string;
}

/** Latency percentiles, each the upper bound (ms) of the bucket it falls in; null when no call was counted or beyond the last bound. */
export interface LatencySummary {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  /** Calls per bucket, in the order of LATENCY_BOUNDS_MS plus the slower-than-all bucket. */
  buckets: number[];
}

/** What the dashboard shows for a range of days. */
export interface UsageStats {
  days: UsageDay[];
  totals: UsageTotals;
  byModel: UsageRow[];
  byToken: UsageRow[];
  byAccount: UsageRow[];
  latency: LatencySummary;
}

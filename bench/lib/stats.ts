// Order statistics of benchmark samples: percentiles of latencies and the median with its spread over rounds.

/** The q-quantile (0..1) of `values` by nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** A figure over several rounds: its median and the lowest and highest round. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

/** The median of `values` with their range. */
export function spreadOf(values: number[]): Spread {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, rounds: 0 };
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, rounds: sorted.length };
}

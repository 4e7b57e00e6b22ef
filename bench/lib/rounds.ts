// Side-by-side comparison: every contender runs the same case in short rounds, alternated (and the order rotated each round), reduced to medians with spreads.
import { runLoad, type LoadResult, type RequestSpec } from './load.ts';
import { spreadOf, type Spread } from './stats.ts';

/** One contender of a case: where to send and what (the request shape may differ, e.g. Portkey's headers). */
export interface Contender {
  name: string;
  origin: string;
  spec: RequestSpec;
}

/** A contender's figures in one case: each a median of the rounds with its range. */
export interface CaseFigures {
  contender: string;
  rps: Spread;
  p50: Spread;
  p99: Spread;
  ttfb50: Spread;
  errors: number;
}

/** How long and how often each contender runs. */
export interface RoundPlan {
  rounds: number;
  roundMs: number;
  warmupMs: number;
}

/** Runs every contender `plan.rounds` times at `concurrency`, alternating them, after one warm-up run each. */
export async function compare(contenders: Contender[], concurrency: number, plan: RoundPlan): Promise<CaseFigures[]> {
  for (const contender of contenders) await runLoad(contender.origin, contender.spec, concurrency, plan.warmupMs);
  const results: LoadResult[][] = contenders.map(() => []);
  for (let round = 0; round < plan.rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length;
      const contender = contenders[index]!;
      results[index]!.push(await runLoad(contender.origin, contender.spec, concurrency, plan.roundMs));
    }
  }
  return contenders.map((contender, index) => {
    const runs = results[index]!;
    return {
      contender: contender.name,
      rps: spreadOf(runs.map((run) => run.rps)),
      p50: spreadOf(runs.map((run) => run.p50)),
      p99: spreadOf(runs.map((run) => run.p99)),
      ttfb50: spreadOf(runs.map((run) => run.ttfb50)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
    };
  });
}

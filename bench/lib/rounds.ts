// Side-by-side comparison: every contender runs the same case in short rounds, alternated (the order shuffled each round), reduced to medians with spreads.
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
  /**
   * Each round's requests per second and p50, in round order: the report pairs two contenders round by round (results
   * up to round 14, `s14-*`, have none).
   */
  byRound?: { rps: number[]; p50: number[] };
}

/**
 * How long each contender process is first run at `JIT_WARMUP_CONCURRENCY` (full bench; quick: 5 s), before its first case's
 * own warm-up: V8 keeps compiling a process's hot path for seconds (a relayed call at c=32 spent 233–255 µs of CPU in the
 * 5 s after a 1 s warm-up, 141–164 µs after a 10 s one, most of the difference on the compilers' threads), so every
 * contender is measured compiled, not only the ones with little code (`results/2026-11-27-s6-relay.md`).
 */
export const JIT_WARMUP_MS = 10_000;
/** The JIT warm-up of a quick run. */
export const JIT_WARMUP_QUICK_MS = 5_000;
/** The concurrency of the JIT warm-up: many calls a second, so the compilers see the hot path soon. */
export const JIT_WARMUP_CONCURRENCY = 32;

/** How long and how often each contender runs. */
export interface RoundPlan {
  rounds: number;
  roundMs: number;
  warmupMs: number;
  /** Each contender process's JIT warm-up (`JIT_WARMUP_MS`), run once, with its first case. */
  jitWarmupMs: number;
}

/**
 * At c=1 a round is split in this many rounds of as many times shorter windows (the same time in all): a window at c=1
 * still answers a few hundred calls (a slow case's) to several thousand, and a busy spell of the machine moves a p50
 * more than the gateway does there. With shorter windows the two sides of a pair the report compares run closer
 * together in time, and more pairs make their median. Every c=1 figure comes from these shorter windows (a p99 from a
 * few hundred calls of each, in a slow case).
 */
export const SINGLE_CALL_ROUND_SPLIT = 3;

/** The rounds and window of a case at `concurrency`, its rounds split in `split` at c=1 (see SINGLE_CALL_ROUND_SPLIT; a run's report passes the split it recorded). */
export function roundsAt(
  plan: Pick<RoundPlan, 'rounds' | 'roundMs'>,
  concurrency: number,
  split = SINGLE_CALL_ROUND_SPLIT,
): { rounds: number; roundMs: number } {
  const by = concurrency === 1 ? split : 1;
  return { rounds: plan.rounds * by, roundMs: plan.roundMs / by };
}

/**
 * The order of the turns of round `round` among `count` contenders: a shuffle seeded by the round (the same in every run).
 * A rotation of one fixed order kept each pair of contenders the same number of windows apart in every round: the
 * gateway four windows from its floor, the older checkout next to it, so a busy spell of the machine paired them
 * unlike (round 17's notes). Shuffled, every contender meets its floor at every distance alike over the rounds.
 */
export function turnOrder(round: number, count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  let state = Math.imul(round + 1, 0x9e3779b9) >>> 0;
  // A small 32-bit generator (mulberry32's steps): uniform enough to shuffle a handful of contenders.
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/** The contenders (by origin) whose JIT warm-up has run. */
const compiled = new Set<string>();

/**
 * Runs every contender `plan.rounds` times at `concurrency` (more, shorter rounds at c=1: `roundsAt`), alternating them in an order shuffled every round (`turnOrder`), after one warm-up run each (a contender
 * met for the first time is first given its JIT warm-up, the same for every contender).
 */
export async function compare(contenders: Contender[], concurrency: number, plan: RoundPlan): Promise<CaseFigures[]> {
  for (const contender of contenders) {
    if (!compiled.has(contender.origin) && plan.jitWarmupMs > 0) {
      compiled.add(contender.origin);
      await runLoad(contender.origin, contender.spec, JIT_WARMUP_CONCURRENCY, plan.jitWarmupMs);
    }
    await runLoad(contender.origin, contender.spec, concurrency, plan.warmupMs);
  }
  const results: LoadResult[][] = contenders.map(() => []);
  const { rounds, roundMs } = roundsAt(plan, concurrency);
  for (let round = 0; round < rounds; round++) {
    for (const index of turnOrder(round, contenders.length)) {
      const contender = contenders[index]!;
      results[index]!.push(await runLoad(contender.origin, contender.spec, concurrency, roundMs));
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
      byRound: { rps: runs.map((run) => run.rps), p50: runs.map((run) => run.p50) },
    };
  });
}

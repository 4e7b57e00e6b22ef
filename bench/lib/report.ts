// The bench's Markdown report: one table per section, each figure a median with its range over rounds, and what each contender adds over the direct upstream.
import type { RelayCase } from '../sections/relay.ts';
import type { SimulateResults } from '../sections/simulate.ts';
import type { FootprintResult } from '../sections/footprint.ts';
import type { ScanResult } from '../sections/scan.ts';
import { roundsAt, type CaseFigures } from './rounds.ts';
import { spreadOf, type Spread } from './stats.ts';

/** Everything one `npm run bench` measured. */
export interface BenchResults {
  date: string;
  label: string;
  commit: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  plan: {
    rounds: number;
    roundMs: number;
    warmupMs: number;
    jitWarmupMs?: number;
    concurrencies: number[];
    quick?: boolean;
    client?: 'lean' | 'undici';
    /** At c=1, each round split in this many shorter ones (SINGLE_CALL_ROUND_SPLIT; absent in results before round 17: none). */
    singleCallSplit?: number;
  };
  /** The machine's load average (1, 5, 15 min) when the run started and when it ended: other work on it moves the absolute figures. */
  load?: { start: number[]; end: number[] };
  relay?: { cases: RelayCase[]; skipped: string[]; portkeyVersion?: string };
  simulate?: SimulateResults;
  scan?: ScanResult;
  /** The same scan on the older checkout ($BENCH_BEFORE_DIR), when given. */
  scanBefore?: ScanResult;
  footprint?: FootprintResult;
  /** The same footprint of the older checkout ($BENCH_BEFORE_DIR), its starts alternated with this one's, when given. */
  footprintBefore?: FootprintResult;
  notes: string[];
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const ranged = (spread: Spread, digits: number) =>
  Number.isFinite(spread.median) ? `${fixed(spread.median, digits)} (${fixed(spread.min, digits)}–${fixed(spread.max, digits)})` : '–';

/** The cases as a table; with `direct`, also each contender's share of the direct rps and its added p50 and first-byte time. */
function caseTable(cases: RelayCase[], direct: boolean): string {
  const head = [
    'case',
    'c',
    'contender',
    'req/s',
    'p50 ms',
    'p99 ms',
    'first byte ms',
    ...(direct ? ['% of direct', '+p50 ms', '+first byte ms'] : []),
    'errors',
  ];
  const rows = [head, head.map(() => '---')];
  for (const item of cases) {
    const base = item.figures.find((figure) => figure.contender === 'direct');
    for (const figure of item.figures) {
      const failed = figure.rps.rounds === 0 || figure.rps.median === 0;
      const extra =
        direct && base && figure !== base && !failed
          ? [
              `${fixed((100 * figure.rps.median) / base.rps.median, 1)} %`,
              fixed(figure.p50.median - base.p50.median, 2),
              fixed(figure.ttfb50.median - base.ttfb50.median, 2),
            ]
          : direct
            ? ['', '', '']
            : [];
      rows.push([
        item.case,
        String(item.concurrency),
        figure.contender,
        failed ? 'failed' : ranged(figure.rps, 0),
        ranged(figure.p50, 2),
        ranged(figure.p99, 2),
        ranged(figure.ttfb50, 2),
        ...extra,
        String(figure.errors),
      ]);
    }
  }
  return rows.map((row) => `| ${row.join(' | ')} |`).join('\n');
}

/** A contender's median figure in a case, by the start of its name. */
function figureOf(cases: RelayCase[] | undefined, name: string, concurrency: number, contender: string) {
  const item = cases?.find((candidate) => candidate.case === name && candidate.concurrency === concurrency);
  const figure = item?.figures.find((candidate) => candidate.contender.startsWith(contender));
  return figure && figure.rps.rounds > 0 && figure.rps.median > 0 ? figure : undefined;
}

/**
 * `a`'s figure `of` against `b`'s (`combine`: a ratio or a difference), paired round by round: each round ran both (the
 * order rotated), so a busy spell of the machine that lasts a round moves both sides of its pair alike; a spell shorter
 * than a round still moves one side. The median of the rounds' values, with their range; results written before the
 * rounds were kept, or rounds that give no value, give the medians' value alone. A round in which `a` answered nothing
 * counts (a ratio of 0); one in which `b` did has no ratio.
 */
function paired(a: CaseFigures, b: CaseFigures, of: 'rps' | 'p50', combine: (ours: number, theirs: number) => number): Spread {
  const ours = a.byRound?.[of];
  const theirs = b.byRound?.[of];
  const usable = (value: number, other: number) =>
    Number.isFinite(value) && Number.isFinite(other) && (of === 'rps' ? other > 0 : value > 0 && other > 0);
  if (ours && theirs && ours.length === theirs.length && ours.length > 0) {
    const rounds = spreadOf(ours.map((value, round) => (usable(value, theirs[round]!) ? combine(value, theirs[round]!) : Number.NaN)));
    if (rounds.rounds > 0) return rounds;
  }
  const value = combine(a[of].median, b[of].median);
  return { median: value, min: value, max: value, rounds: 1 };
}

/** The rounds' range of a paired figure, for the column it came from (nothing when it is a value of medians). */
function byRound(spread: Spread, format: (value: number) => string): string {
  return spread.rounds > 1 ? `; by round ${format(spread.min)} to ${format(spread.max)}` : '';
}

/** The figures issue 30 sets targets for, each a ratio of contenders measured side by side in this run; with an older checkout in the run, its ratio beside. */
function targetRows(results: BenchResults): string[][] {
  const relay = results.relay?.cases;
  const simulate = results.simulate?.cases;
  const rows: string[][] = [];
  const share = (
    label: string,
    cases: RelayCase[] | undefined,
    name: string,
    c: number,
    ours: string,
    theirs: string,
    target: string,
    asTimes = false,
    // No older checkout runs a contender of its own for every row (the keyed channel): such a row has no BEFORE ratio.
    withBefore = true,
  ) => {
    const b = figureOf(cases, name, c, theirs);
    const format = (ratio: number) => (asTimes ? `${fixed(ratio, 2)}×` : `${fixed(100 * ratio, 0)} %`);
    const ratioOf = (who: string) => {
      const a = figureOf(cases, name, c, who);
      return a && b ? paired(a, b, 'rps', (x, y) => x / y) : undefined;
    };
    const a = figureOf(cases, name, c, ours);
    const ratio = ratioOf(ours);
    if (!a || !b || !ratio) return;
    const before = withBefore ? ratioOf('gatehouse BEFORE') : undefined;
    rows.push([
      label,
      format(ratio.median),
      before ? format(before.median) : '–',
      `${fixed(a.rps.median, 0)} vs ${fixed(b.rps.median, 0)} req/s${byRound(ratio, format)}`,
      target,
    ]);
  };
  share(
    'relayed chat c=32, journal on, share of bare node:http relay',
    relay,
    'chat, JSON',
    32,
    'gatehouse (journal on)',
    'bare node:http',
    '≥ 50 %',
  );
  share(
    'the same through a channel with a key (every real provider channel has one)',
    relay,
    'chat, JSON',
    32,
    'gatehouse (journal on, channel key)',
    'bare node:http',
    '–',
    false,
    false,
  );
  const floor = figureOf(relay, 'chat, JSON', 1, 'bare node:http');
  // Rounded before its sign is chosen: a value that rounds to zero shows as +0.00, not -0.00.
  const addedMs = (value: number) => {
    const shown = fixed(value, 2);
    if (!shown.startsWith('-')) return `+${shown} ms`;
    return Number(shown) === 0 ? '+0.00 ms' : `${shown} ms`;
  };
  const added = (who: string) => {
    const one = figureOf(relay, 'chat, JSON', 1, who);
    return one && floor ? paired(one, floor, 'p50', (x, y) => x - y) : undefined;
  };
  const one = figureOf(relay, 'chat, JSON', 1, 'gatehouse (journal on)');
  const ours = added('gatehouse (journal on)');
  const before = added('gatehouse BEFORE');
  if (one && floor && ours)
    rows.push([
      'relayed chat c=1, p50 added over bare node:http relay',
      addedMs(ours.median),
      before ? addedMs(before.median) : '–',
      `${fixed(one.p50.median, 2)} vs ${fixed(floor.p50.median, 2)} ms${byRound(ours, addedMs)}`,
      '≤ +0.15 ms',
    ]);
  share('relayed chat c=32 against Portkey', relay, 'chat, JSON', 32, 'gatehouse (journal on)', 'portkey', '≥ 4×', true);
  share(
    'relayed SSE c=32, journal on, share of bare node:http relay',
    relay,
    'chat, SSE stream',
    32,
    'gatehouse (journal on)',
    'bare node:http',
    '–',
  );
  share('simulated chat JSON c=32 against aimock', simulate, 'chat, JSON', 32, 'gatehouse simulate', 'aimock', '≥ 1.5×', true);
  share('simulated chat SSE c=32 against aimock', simulate, 'chat, SSE stream', 32, 'gatehouse simulate', 'aimock', '≥ 1.5×', true);
  share('simulated chat JSON c=32, share of bare Fastify', simulate, 'chat, JSON', 32, 'gatehouse simulate', 'bare fastify', '≥ 50 %');
  share(
    'simulated chat JSON c=32, share of bare node:http (the floor of Node)',
    simulate,
    'chat, JSON',
    32,
    'gatehouse simulate',
    'bare node:http',
    '–',
  );
  const foot = results.footprint;
  const old = results.footprintBefore;
  if (foot) {
    rows.push([
      // Results written before 48dea77 (no first start apart) took the first start and two restarts.
      `\`gatehouse serve\` start-up to first answer, alone (${foot.firstStartMs === undefined ? 'a first start and restarts' : 'restarts on its data dir'})`,
      `${fixed(foot.startupMs.median, 0)} ms`,
      old ? `${fixed(old.startupMs.median, 0)} ms` : '',
      ranged(foot.startupMs, 0),
      '≤ 300 ms quiet',
    ]);
    if (foot.firstStartMs !== undefined)
      rows.push([
        'the first start, on a new data dir (databases and first token made; median of the first starts)',
        `${fixed(foot.firstStartMs, 0)} ms`,
        old?.firstStartMs !== undefined ? `${fixed(old.firstStartMs, 0)} ms` : '',
        // Results before round 16 took one first start per checkout.
        foot.firstStartsMs ? `${ranged(foot.firstStartsMs, 0)}, ${foot.firstStartsMs.rounds} new data dirs` : '1 start',
        '',
      ]);
    if (foot.startupCpuMs && foot.startupCpuMs.rounds > 0)
      rows.push([
        'start-up CPU time (restarts, all threads; moves least with other load)',
        `${fixed(foot.startupCpuMs.median, 0)} ms`,
        old?.startupCpuMs ? `${fixed(old.startupCpuMs.median, 0)} ms` : '',
        ranged(foot.startupCpuMs, 0),
        '',
      ]);
    if (foot.startupBusyMs && foot.startupBusyMs.rounds > 0)
      rows.push([
        'start-up beside a CPU-busy process',
        `${fixed(foot.startupBusyMs.median / foot.startupMs.median, 2)}× alone`,
        old?.startupBusyMs ? `${fixed(old.startupBusyMs.median / old.startupMs.median, 2)}× alone` : '',
        `${ranged(foot.startupBusyMs, 0)} ms`,
        '≤ 2× quiet',
      ]);
    rows.push([
      'resident memory 3 s after the load, against idle',
      `${fixed(foot.rssAfterMb / foot.rssIdleMb, 2)}×`,
      old ? `${fixed(old.rssAfterMb / old.rssIdleMb, 2)}×` : '',
      `${fixed(foot.rssAfterMb, 0)} vs ${fixed(foot.rssIdleMb, 0)} MB`,
      '',
    ]);
    const settled = (result: FootprintResult) =>
      result.rssWatchEndMb === undefined
        ? '–'
        : `${fixed(result.rssWatchEndMb / result.rssIdleMb, 2)}× ${result.rssSettledS == null ? 'after 30 s' : `after ${fixed(result.rssSettledS, 1)} s`}`;
    rows.push([
      'resident memory within 30 s of the load, against idle',
      settled(foot),
      old ? settled(old) : '',
      `${fixed(foot.rssWatchEndMb ?? Number.NaN, 0)} vs ${fixed(foot.rssIdleMb, 0)} MB`,
      '≤ 1.5× idle within 30 s',
    ]);
  }
  return rows;
}

/** How the c=1 cases' rounds were split, when they were. */
function splitNote(plan: BenchResults['plan']): string {
  const split = plan.singleCallSplit ?? 1;
  if (split <= 1 || !plan.concurrencies.includes(1)) return '';
  const { rounds, roundMs } = roundsAt(plan, 1, split);
  return ` (at c=1, ${rounds} rounds of ${fixed(roundMs / 1000, 2)} s)`;
}

/** The whole report as Markdown. */
export function renderMarkdown(results: BenchResults): string {
  const { machine, plan } = results;
  const parts = [
    `# Gatehouse bench ${results.date} (${results.label}, ${results.commit})`,
    '',
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. ` +
      `Each figure: median of ${plan.rounds} rounds of ${plan.roundMs / 1000} s${splitNote(plan)} (range in brackets), contenders alternated; keep-alive, concurrency ${plan.concurrencies.join(' and ')}` +
      `, from ${plan.client === 'lean' ? 'the lean client (raw sockets)' : 'an undici Pool'}` +
      `; each contender first warmed up ${(plan.jitWarmupMs ?? 0) / 1000} s at c=32 (JIT), then ${plan.warmupMs / 1000} s per case` +
      `${plan.quick ? ' (quick mode: fewer and shorter rounds, a smaller store)' : ''}.`,
  ];
  if (results.load)
    parts.push(
      '',
      `Load average (1, 5, 15 min) at start ${results.load.start.map((value) => value.toFixed(2)).join(', ')}, at end ${results.load.end.map((value) => value.toFixed(2)).join(', ')}: ` +
        'other work on the machine moves absolute figures; the ratios below compare contenders measured in the same rounds.',
    );
  const targets = targetRows(results);
  if (targets.length > 0) {
    parts.push(
      '',
      '## Targets (issue 30)',
      '',
      '| figure | this checkout | BEFORE (older checkout, same rounds) | from | target |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const row of targets) parts.push(`| ${row.join(' | ')} |`);
  }
  if (results.relay) {
    parts.push('', '## Relay (fixed upstream answer)', '', caseTable(results.relay.cases, true));
    for (const reason of results.relay.skipped) parts.push('', `Skipped: ${reason}`);
  }
  if (results.simulate) {
    parts.push('', '## Simulate mode', '', caseTable(results.simulate.cases, false));
    for (const note of new Set(results.simulate.cases.flatMap((item) => (item.note ? [`${item.case}: ${item.note}`] : []))))
      parts.push('', note);
    for (const reason of results.simulate.skipped) parts.push('', `Skipped: ${reason}`);
  }
  const scanLine = (scan: ScanResult, who: string) =>
    `${who}: ${scan.checked} of ${scan.assets} non-terminal assets refreshed in ${fixed(scan.wallMs / 1000, 2)} s against a reviewer taking ` +
    `${scan.reviewerMs} ms per call, at most ${scan.concurrency} calls in flight (${scan.errors} errors).`;
  if (results.scan) parts.push('', '## Background scan', '', scanLine(results.scan, 'This checkout'));
  if (results.scanBefore) parts.push('', scanLine(results.scanBefore, 'BEFORE'));
  if (results.footprint) {
    const line = (who: string, foot: FootprintResult) =>
      `| ${who} | ${foot.firstStartsMs ? ranged(foot.firstStartsMs, 0) : foot.firstStartMs === undefined ? '–' : fixed(foot.firstStartMs, 0)} | ${ranged(foot.startupMs, 0)} | ${foot.startupBusyMs ? ranged(foot.startupBusyMs, 0) : '–'} | ${foot.startupCpuMs ? ranged(foot.startupCpuMs, 0) : '–'} | ${fixed(foot.rssIdleMb, 0)} | ${fixed(foot.rssLoadMb, 0)} | ${fixed(foot.rssAfterMb, 0)} | ${foot.rssSettledS == null ? 'not within 30' : fixed(foot.rssSettledS, 1)} | ${fixed(foot.rssWatchEndMb ?? Number.NaN, 0)} | ${foot.consolePaintMs === null ? 'skipped' : fixed(foot.consolePaintMs, 0)} |`;
    parts.push(
      '',
      '## Footprint of `gatehouse serve`',
      '',
      '| | first starts (new data dirs) ms | start-up to first answer ms | the same beside a CPU-busy process ms | start-up CPU ms | RSS idle MB | RSS under load MB | RSS 3 s after MB | ≤ 1.5× idle after s | RSS when the watch ended MB | console first paint ms |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      line('this checkout', results.footprint),
    );
    if (results.footprintBefore)
      parts.push(
        line(
          results.footprintBefore.startsAlternated ? "BEFORE (starts alternated with this checkout's)" : 'BEFORE (measured right after)',
          results.footprintBefore,
        ),
      );
    for (const reason of results.footprint.skipped) parts.push('', `Skipped: ${reason}`);
    // BEFORE's paint is never measured; what else it skipped (its starts run from the sources, say) is said.
    for (const reason of results.footprintBefore?.skipped ?? [])
      if (!reason.startsWith('console first paint')) parts.push('', `Skipped (BEFORE): ${reason}`);
  }
  for (const note of results.notes) parts.push('', `Note: ${note}`);
  return `${parts.join('\n')}\n`;
}

// The bench's Markdown report: one table per section, each figure a median with its range over rounds, and what each contender adds over the direct upstream.
import type { RelayCase } from '../sections/relay.ts';
import type { FootprintResult } from '../sections/footprint.ts';
import type { ScanResult } from '../sections/scan.ts';
import type { Spread } from './stats.ts';

/** Everything one `npm run bench` measured. */
export interface BenchResults {
  date: string;
  label: string;
  commit: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  plan: { rounds: number; roundMs: number; warmupMs: number; concurrencies: number[] };
  relay?: { cases: RelayCase[]; skipped: string[]; portkeyVersion?: string };
  simulate?: RelayCase[];
  scan?: ScanResult;
  /** The same scan on the older checkout ($BENCH_BEFORE_DIR), when given. */
  scanBefore?: ScanResult;
  footprint?: FootprintResult;
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

/** The whole report as Markdown. */
export function renderMarkdown(results: BenchResults): string {
  const { machine, plan } = results;
  const parts = [
    `# Gatehouse bench ${results.date} (${results.label}, ${results.commit})`,
    '',
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. ` +
      `Each figure: median of ${plan.rounds} rounds of ${plan.roundMs / 1000} s (range in brackets), contenders alternated; keep-alive, concurrency ${plan.concurrencies.join(' and ')}.`,
  ];
  if (results.relay) {
    parts.push('', '## Relay (fixed upstream answer)', '', caseTable(results.relay.cases, true));
    for (const reason of results.relay.skipped) parts.push('', `Skipped: ${reason}`);
  }
  if (results.simulate) parts.push('', '## Simulate mode', '', caseTable(results.simulate, false));
  const scanLine = (scan: ScanResult, who: string) =>
    `${who}: ${scan.checked} of ${scan.assets} non-terminal assets refreshed in ${fixed(scan.wallMs / 1000, 2)} s against a reviewer taking ` +
    `${scan.reviewerMs} ms per call, at most ${scan.concurrency} calls in flight (${scan.errors} errors).`;
  if (results.scan) parts.push('', '## Background scan', '', scanLine(results.scan, 'This checkout'));
  if (results.scanBefore) parts.push('', scanLine(results.scanBefore, 'BEFORE'));
  if (results.footprint) {
    const foot = results.footprint;
    parts.push(
      '',
      '## Footprint of `gatehouse serve`',
      '',
      '| start-up to first answer ms | RSS idle MB | RSS under load MB | RSS after MB | console first paint ms |',
      '| --- | --- | --- | --- | --- |',
      `| ${ranged(foot.startupMs, 0)} | ${fixed(foot.rssIdleMb, 0)} | ${fixed(foot.rssLoadMb, 0)} | ${fixed(foot.rssAfterMb, 0)} | ${foot.consolePaintMs === null ? 'skipped' : fixed(foot.consolePaintMs, 0)} |`,
    );
    for (const reason of foot.skipped) parts.push('', `Skipped: ${reason}`);
  }
  for (const note of results.notes) parts.push('', `Note: ${note}`);
  return `${parts.join('\n')}\n`;
}

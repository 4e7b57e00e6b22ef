// `npm run bench`: runs the relay, simulate, background-scan and footprint benchmarks and writes bench/results/<date>[-label].json and .md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeClients, loadClient } from './lib/load.ts';
import { JIT_WARMUP_MS, JIT_WARMUP_QUICK_MS, SINGLE_CALL_ROUND_SPLIT } from './lib/rounds.ts';
import { renderMarkdown, type BenchResults } from './lib/report.ts';
import { benchFootprints, THIS_CHECKOUT } from './sections/footprint.ts';
import { beforeScript, benchRelay } from './sections/relay.ts';
import { benchScan } from './sections/scan.ts';
import { benchSimulate } from './sections/simulate.ts';

// `--quick` (or BENCH_QUICK=1): fewer and shorter rounds and smaller stores, about a quarter of the full run's time.
const quick = process.argv.includes('--quick') || process.env['BENCH_QUICK'] === '1';
const env = (name: string, full: number, short = full) => Number(process.env[name] ?? (quick ? short : full));
const plan = {
  rounds: env('BENCH_ROUNDS', 5, 3),
  roundMs: env('BENCH_ROUND_MS', 2000, 1000),
  warmupMs: env('BENCH_WARMUP_MS', 1000, 500),
  jitWarmupMs: env('BENCH_JIT_WARMUP_MS', JIT_WARMUP_MS, JIT_WARMUP_QUICK_MS),
};
const concurrencies = [1, 32];
const only = new Set((process.env['BENCH_ONLY'] ?? 'relay,simulate,scan,footprint').split(','));
const label = process.env['BENCH_LABEL'] ?? 'latest';
const here = path.dirname(fileURLToPath(import.meta.url));

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const date = new Date().toISOString().slice(0, 10);
const cpus = os.cpus();
const results: BenchResults = {
  date,
  label,
  commit,
  machine: {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.versions.node,
    platform: `${process.platform} ${os.release()}`,
  },
  plan: { ...plan, concurrencies, quick, client: loadClient(), singleCallSplit: SINGLE_CALL_ROUND_SPLIT },
  load: { start: os.loadavg(), end: [] },
  notes: [],
};

try {
  if (only.has('relay')) results.relay = await benchRelay(plan, concurrencies);
  if (only.has('simulate')) results.simulate = await benchSimulate(plan, concurrencies, env('BENCH_ASSETS', 100_000, 10_000));
  if (only.has('scan')) {
    results.scan = await benchScan(env('BENCH_SCAN_ASSETS', 10_000, 2_000), env('BENCH_REVIEWER_MS', 10));
    const before = beforeScript();
    if (before) results.scanBefore = await benchScan(env('BENCH_SCAN_ASSETS', 10_000, 2_000), env('BENCH_REVIEWER_MS', 10), before);
  }
  if (only.has('footprint')) {
    // Each start-up figure is a median of this many starts (the first starts, each on a new data dir, apart).
    const restarts = env('BENCH_RESTARTS', 6, 3);
    const beforeDir = process.env['BENCH_BEFORE_DIR'];
    const before = beforeDir ? [{ dir: path.resolve(beforeDir), paint: false }] : [];
    const [footprint, footprintBefore] = await benchFootprints(restarts, 3000, [THIS_CHECKOUT, ...before]);
    results.footprint = footprint;
    if (footprintBefore) results.footprintBefore = footprintBefore;
  }
} finally {
  await closeClients();
}
results.load!.end = os.loadavg();

const dir = path.join(here, 'results');
mkdirSync(dir, { recursive: true });
const base = path.join(dir, label === 'latest' ? date : `${date}-${label}`);
const markdown = renderMarkdown(results);
writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(`${base}.md`, markdown);
console.log(`\n${markdown}\nwritten: ${base}.json and ${base}.md`);

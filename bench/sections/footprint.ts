// Footprint of `gatehouse serve`: start-up to the first answered request (alone, then beside a CPU-busy process), resident memory idle, under load and in the 30 s after, and the console's first paint.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chatBody } from '../lib/fixtures.ts';
import { runLoad } from '../lib/load.ts';
import { cpuMsOf, rssMb, stopProcess } from '../lib/processes.ts';
import { spreadOf, type Spread } from '../lib/stats.ts';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
/** When the launcher saves the code cache of a run that outlives it (this checkout's; an older one's the same 5 s). */
const { CODE_CACHE_SAVE_MS } = (await import(pathToFileURL(path.join(root, 'bin/cli-bundle.mjs')).href)) as { CODE_CACHE_SAVE_MS: number };

export interface FootprintResult {
  /** Spawn of `gatehouse serve` to the first answered API call on a data dir it made before (restarts), ms. */
  startupMs: Spread;
  /** The same on a new data dir (the databases and the first token made), ms: the median of FIRST_STARTS new data dirs (one until round 16), so not among the restarts. */
  firstStartMs?: number;
  /** Each of those first starts, their median and range (results before round 16 have one first start and no spread). */
  firstStartsMs?: Spread;
  /** The same restarts with a second process spinning on the CPU beside it (a busy machine), ms. */
  startupBusyMs?: Spread;
  /** CPU time (user and system, all threads) the restarts used up to their first answer, ms: what other load on the machine moves least. */
  startupCpuMs?: Spread;
  rssIdleMb: number;
  rssLoadMb: number;
  /** Resident memory AFTER_LOAD_MS after the load ended. */
  rssAfterMb: number;
  /** Resident memory when the watch ended: when it first came back to 1.5× idle (after AFTER_LOAD_MS at the earliest), else RSS_WATCH_MS after the load. */
  rssWatchEndMb?: number;
  /** Seconds after the load ended until resident memory was at most 1.5× idle (null: not within RSS_WATCH_MS). */
  rssSettledS?: number | null;
  /** The console's first contentful paint in headless Chromium, ms, or why it was skipped. */
  consolePaintMs: number | null;
  skipped: string[];
  /** Whether its starts alternated with another checkout's (BEFORE's, or this one's); results until round 15 measured one checkout after the other. */
  startsAlternated?: boolean;
}

interface Served {
  child: ChildProcess;
  url: string;
  token: string;
  consoleUrl: string;
  startupMs: number;
  cpuMs: number;
}

/** How a checkout's timed starts run: the environment of its `gatehouse serve`, and why they run the sources when they do. */
interface StartPlan {
  env: NodeJS.ProcessEnv;
  unbundled?: string;
}

/**
 * Gets the checkout ready to start as every start after a checkout's first does: its CLI bundle built when none matches
 * its sources (after an edit, or in a fresh clone, the first start runs the sources and builds it in the background), then
 * one untimed start on a throwaway data dir, which saves the bundle's code cache for `serve` (or, running the sources,
 * fills Node's compile cache). Each checkout uses its own bundle folder (a GATEHOUSE_CLI_BUNDLE_DIR of the bench's would
 * give BEFORE's starts this checkout's bundle); a checkout whose bundle is off or not built runs every timed start from
 * the sources (GATEHOUSE_CLI_BUNDLE=off, so no background build lands among them), and the plan says why.
 */
async function readyStarts(checkout: string): Promise<StartPlan> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['GATEHOUSE_CLI_BUNDLE_DIR'];
  const bundle = bundledOrWhyNot(checkout, env);
  const plan: StartPlan = 'unbundled' in bundle ? { env: { ...env, GATEHOUSE_CLI_BUNDLE: 'off' }, unbundled: bundle.unbundled } : { env };
  // The code cache `serve` made so far came from whichever start ran the bundle first (a test's that exited at once,
  // say, which leaves out what the first answer needs): each checkout's is made again by the untimed start, which
  // outlives the launcher's timer, so every checkout's timed starts read a cache saved alike.
  if ('dir' in bundle)
    for (const file of readdirSync(bundle.dir)) if (file.endsWith('.serve.codecache')) rmSync(path.join(bundle.dir, file), { force: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-warm-'));
  try {
    const warm = await serve(checkout, dataDir, plan.env);
    if ('dir' in bundle) await sleep(CODE_CACHE_SAVE_MS + 500);
    await stopProcess(warm.child);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return plan;
}

/** Builds the checkout's CLI bundle when none matches its sources: its folder once one does, else why its starts run the sources. */
function bundledOrWhyNot(checkout: string, env: NodeJS.ProcessEnv): { dir: string } | { unbundled: string } {
  const launcher = path.join(checkout, 'bin/cli-bundle.mjs');
  if (!existsSync(launcher)) return { unbundled: 'the checkout has no CLI bundle: its starts run the sources' };
  // Asked in a process with the starts' environment: 0 fresh, 1 stale or missing, 2 off, 3 the check itself failed;
  // the bundle's folder on stdout.
  const check = () =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `try {
          const launcher = await import(${JSON.stringify(pathToFileURL(launcher).href)});
          process.stdout.write(launcher.bundleDir());
          process.exitCode = !launcher.bundleEnabled() ? 2 : launcher.freshBundle() ? 0 : 1;
        } catch (error) {
          console.error(error?.message ?? error);
          process.exitCode = 3;
        }`,
      ],
      { env, encoding: 'utf8', timeout: 60_000 },
    );
  const first = check();
  if (first.status === 0) return { dir: first.stdout };
  if (first.status === 2)
    return { unbundled: 'the CLI bundle is off (GATEHOUSE_CLI_BUNDLE=off, or a Node without type stripping): the starts run the sources' };
  if (first.status !== 1)
    return { unbundled: `the bundle's check failed (${lastLine(first.stderr) ?? `exit ${first.status}`}): the starts run the sources` };
  const build = spawnSync(process.execPath, [path.join(checkout, 'bin/build-cli-bundle.mjs')], {
    cwd: checkout,
    env,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
  });
  const second = check();
  if (second.status === 0) return { dir: second.stdout };
  const why = lastLine(build.stderr) ?? lastLine(build.stdout) ?? `exit ${build.status ?? build.signal}`;
  return { unbundled: `the CLI bundle was not built (${why}): the starts run the sources` };
}

/** How long the bench waits for a checkout's bundle to build (a few seconds here). */
const BUILD_TIMEOUT_MS = 300_000;

/** The last line of a process's output with text on it, if any. */
function lastLine(output: string | undefined): string | undefined {
  return output
    ?.split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}

/** Starts `gatehouse serve` on `dataDir` with `env` and waits for its first answered call (`token` when the dir is not new). */
async function serve(checkout: string, dataDir: string, env: NodeJS.ProcessEnv, knownToken?: string): Promise<Served> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      path.join(checkout, 'bin/gatehouse.mjs'),
      'serve',
      '--port',
      '0',
      '--tls-port',
      'off',
      '--data-dir',
      dataDir,
      '--settings-file',
      'off',
      '--secrets',
      'none',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'], env },
  );
  let out = '';
  const lines = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^console: /m.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`gatehouse serve exited with ${code}`)));
  });
  try {
    await lines;
    const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
    const token = knownToken ?? /(sk-gh-\S+)/.exec(out)![1]!;
    const consoleUrl = /^console: (\S+)/m.exec(out)![1]!;
    const answer = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`first call answered ${answer.status}`);
    return { child, url, token, consoleUrl, startupMs: performance.now() - started, cpuMs: cpuMsOf(child.pid!) };
  } catch (error) {
    // A start that failed is stopped before its data dir is removed.
    await stopProcess(child);
    throw error;
  }
}

async function consolePaint(consoleUrl: string): Promise<number | string> {
  const { browserSkipReason, launchChromium } = await import('../../tests/helpers/browser.ts');
  const reason = browserSkipReason();
  if (reason) return reason;
  const { ensureBuilt } = await import('../../tests/helpers/build.ts');
  await ensureBuilt();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(consoleUrl, { waitUntil: 'load' });
    const paint = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const found = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
          const poll = () => {
            const time = found();
            if (time !== undefined) resolve(time);
            else setTimeout(poll, 50);
          };
          poll();
        }),
    );
    return paint;
  } finally {
    await browser.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long resident memory is watched after the load, and when the "after" figure is read. */
const RSS_WATCH_MS = 30_000;
const AFTER_LOAD_MS = 3_000;
/**
 * First starts of each checkout, each on a new data dir, the checkouts taking turns: one first start each read 329
 * against 346 ms in one run and 445 against 331 in another (results/2026-11-28-issue30-round15.md), so one says little.
 * Four, so that with two checkouts each one goes first in two rounds.
 */
const FIRST_STARTS = 4;

/** A second process spinning on one core for as long as it runs: a busy machine beside the start-up. */
function busyNeighbour(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** A checkout whose footprint is measured: its folder, and whether the console's first paint is measured too. */
export interface FootprintCheckout {
  dir: string;
  paint: boolean;
}

/** This checkout, with the console's first paint. */
export const THIS_CHECKOUT: FootprintCheckout = { dir: root, paint: true };

/** What one checkout's starts gathered so far. */
interface Starts {
  checkout: FootprintCheckout;
  env: NodeJS.ProcessEnv;
  /** The data dir its restarts run on: its first first start's ('' until that start). */
  dataDir: string;
  skipped: string[];
  token?: string;
  /** Its first starts, each on a new data dir (see firstStartsInTurn), ms. */
  firsts: number[];
  alone: number[];
  cpu: number[];
  busy: number[];
}

/**
 * Measures the footprint of each checkout (this one first; BENCH_BEFORE_DIR's for BEFORE): FIRST_STARTS first starts
 * of each on new data dirs, then `restarts` restarts of each on the first of those data dirs alone and as many beside
 * a CPU-busy process, the checkouts' starts alternated (the order swapped every round), so that what the machine does
 * meanwhile falls on every checkout alike (one checkout measured after the other read up to 44 ms apart:
 * results/2026-11-28-issue30-round15.md). Then each one's memory under load and, when asked, the console's first paint.
 */
export async function benchFootprints(restarts: number, loadMs: number, checkouts: FootprintCheckout[]): Promise<FootprintResult[]> {
  const all: Starts[] = [];
  try {
    for (const checkout of checkouts) {
      const skipped: string[] = [];
      const { env, unbundled } = await readyStarts(checkout.dir);
      if (unbundled) {
        skipped.push(`start-up with the bundle: ${unbundled}`);
        console.log(`start-up of ${checkout.dir}: ${unbundled}`);
      }
      all.push({ checkout, env, dataDir: '', skipped, firsts: [], alone: [], cpu: [], busy: [] });
    }
    await firstStartsInTurn(all);
    await restartInTurn(all, restarts, false);
    const neighbour = busyNeighbour();
    try {
      await restartInTurn(all, restarts, true);
    } finally {
      await stopProcess(neighbour);
    }
    const results: FootprintResult[] = [];
    for (const starts of all) results.push(await memoryAndPaint(starts, loadMs, all.length > 1));
    return results;
  } finally {
    for (const starts of all) if (starts.dataDir !== '') rmSync(starts.dataDir, { recursive: true, force: true });
  }
}

/** `rounds` rounds in which each checkout takes its turn (`turn`), the order swapped every round. */
async function inTurns(all: Starts[], rounds: number, turn: (starts: Starts, round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < rounds; round++) for (const starts of round % 2 === 0 ? all : [...all].reverse()) await turn(starts, round);
}

/**
 * FIRST_STARTS rounds in which each checkout starts once on a new data dir (and stops): the first round's data dir
 * (and its token) is the one the checkout restarts on, the others' are removed.
 */
function firstStartsInTurn(all: Starts[]): Promise<void> {
  return inTurns(all, FIRST_STARTS, async (starts, round) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-serve-'));
    if (round === 0) starts.dataDir = dataDir;
    try {
      const first = await serve(starts.checkout.dir, dataDir, starts.env);
      starts.firsts.push(first.startupMs);
      if (round === 0) starts.token = first.token;
      await stopProcess(first.child);
    } finally {
      if (round > 0) rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/** `restarts` rounds in which each checkout starts once on its data dir (and stops), the order swapped every round. */
function restartInTurn(all: Starts[], restarts: number, busy: boolean): Promise<void> {
  return inTurns(all, restarts, async (starts) => {
    const served = await serve(starts.checkout.dir, starts.dataDir, starts.env, starts.token);
    if (busy) starts.busy.push(served.startupMs);
    else {
      starts.alone.push(served.startupMs);
      starts.cpu.push(served.cpuMs);
    }
    await stopProcess(served.child);
  });
}

/** One more start of a checkout: its resident memory idle, under a load of chat streams and after it; then the console's first paint when asked. */
async function memoryAndPaint(starts: Starts, loadMs: number, startsAlternated: boolean): Promise<FootprintResult> {
  const { checkout, skipped } = starts;
  const served = await serve(checkout.dir, starts.dataDir, starts.env, starts.token);
  try {
    await sleep(2000);
    const pid = served.child.pid!;
    const rssIdleMb = rssMb(pid);
    let rssLoadMb = 0;
    const sampler = setInterval(() => (rssLoadMb = Math.max(rssLoadMb, rssMb(pid))), 100);
    await runLoad(
      served.url,
      {
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { authorization: `Bearer ${served.token}` },
        body: chatBody(true, 'sim-chat'),
      },
      32,
      loadMs,
    );
    clearInterval(sampler);
    const loadEnded = performance.now();
    let rssAfterMb = Number.NaN;
    let rssWatchEndMb = Number.NaN;
    let rssSettledS: number | null = null;
    while (performance.now() - loadEnded < RSS_WATCH_MS) {
      await sleep(500);
      const elapsed = performance.now() - loadEnded;
      const rss = rssMb(pid);
      rssWatchEndMb = rss;
      if (Number.isNaN(rssAfterMb) && elapsed >= AFTER_LOAD_MS) rssAfterMb = rss;
      if (rss <= 1.5 * rssIdleMb) {
        rssSettledS ??= elapsed / 1000;
        if (!Number.isNaN(rssAfterMb)) break;
      }
    }
    let consolePaintMs: number | null = null;
    const painted = checkout.paint
      ? await consolePaint(served.consoleUrl).catch((error: Error) => `console paint failed: ${error.message}`)
      : 'not measured for this checkout';
    if (typeof painted === 'number') consolePaintMs = painted;
    else {
      skipped.push(`console first paint: ${painted}`);
      console.log(`skipping console first paint: ${painted}`);
    }
    const firstStartsMs = spreadOf(starts.firsts);
    return {
      startupMs: spreadOf(starts.alone),
      firstStartMs: firstStartsMs.median,
      firstStartsMs,
      startupBusyMs: spreadOf(starts.busy),
      startupCpuMs: spreadOf(starts.cpu),
      rssIdleMb,
      rssLoadMb,
      rssAfterMb,
      rssWatchEndMb,
      rssSettledS,
      consolePaintMs,
      skipped,
      startsAlternated,
    };
  } finally {
    await stopProcess(served.child);
  }
}

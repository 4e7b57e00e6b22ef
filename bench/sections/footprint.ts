// Footprint of `gatehouse serve`: start-up to the first answered request (alone, then beside a CPU-busy process), resident memory idle, under load and in the 30 s after, and the console's first paint.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chatBody } from '../lib/fixtures.ts';
import { runLoad } from '../lib/load.ts';
import { cpuMsOf, rssMb, stopProcess } from '../lib/processes.ts';
import { spreadOf, type Spread } from '../lib/stats.ts';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

export interface FootprintResult {
  /** Spawn of `gatehouse serve` to the first answered API call on a data dir it made before (restarts), ms. */
  startupMs: Spread;
  /** The same on a new data dir (the databases and the first token made), ms: once per data dir, so not among the restarts. */
  firstStartMs?: number;
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
}

interface Served {
  child: ChildProcess;
  url: string;
  token: string;
  consoleUrl: string;
  startupMs: number;
  cpuMs: number;
}

/**
 * Gets the checkout ready to start as a checkout's every start after its first does: its CLI bundle built (when none
 * matches its sources, as after an edit or in a fresh clone, where the first start runs the sources and builds it in the
 * background) and started once on a data dir of its own, which saves the bundle's code cache for `serve`. Answers why
 * when the starts will run the sources instead.
 */
async function readyBundle(checkout: string): Promise<string | undefined> {
  const launcher = path.join(checkout, 'bin/cli-bundle.mjs');
  if (!existsSync(launcher)) return 'the checkout has no CLI bundle: its starts run the sources';
  const { bundleEnabled, freshBundle } = (await import(pathToFileURL(launcher).href)) as {
    bundleEnabled(): boolean;
    freshBundle(): unknown;
  };
  if (!bundleEnabled())
    return 'the CLI bundle is off here (GATEHOUSE_CLI_BUNDLE=off, or a Node without type stripping): the starts run the sources';
  if (!freshBundle()) {
    const build = spawnSync(process.execPath, [path.join(checkout, 'bin/build-cli-bundle.mjs')], { cwd: checkout, encoding: 'utf8' });
    if (build.status !== 0 || !freshBundle())
      return `the CLI bundle was not built (${(build.stderr || build.stdout).trim()}): the starts run the sources`;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-warm-'));
  try {
    await stopProcess((await serve(checkout, dataDir)).child);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return undefined;
}

/** Starts `gatehouse serve` on `dataDir` and waits for its first answered call (`token` when the dir is not new). */
async function serve(checkout: string, dataDir: string, knownToken?: string): Promise<Served> {
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
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  const lines = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^console: /m.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`gatehouse serve exited with ${code}`)));
  });
  await lines;
  const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
  const token = knownToken ?? /(sk-gh-\S+)/.exec(out)![1]!;
  const consoleUrl = /^console: (\S+)/m.exec(out)![1]!;
  const answer = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`first call answered ${answer.status}`);
  return { child, url, token, consoleUrl, startupMs: performance.now() - started, cpuMs: cpuMsOf(child.pid!) };
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

/** A second process spinning on one core for as long as it runs: a busy machine beside the start-up. */
function busyNeighbour(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/**
 * Measures the footprint of the checkout at `checkout` (this one unless told; BENCH_BEFORE_DIR's for BEFORE): a first
 * start on a new data dir, then `restarts` starts on it alone and `restarts` beside a CPU-busy process. `paint`: also the
 * console's first paint.
 */
export async function benchFootprint(restarts: number, loadMs: number, checkout = root, paint = true): Promise<FootprintResult> {
  const skipped: string[] = [];
  const unbundled = await readyBundle(checkout);
  if (unbundled) {
    skipped.push(`start-up with the bundle: ${unbundled}`);
    console.log(`start-up: ${unbundled}`);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-serve-'));
  try {
    const startups: number[] = [];
    const cpu: number[] = [];
    let served = await serve(checkout, dataDir);
    const firstStartMs = served.startupMs;
    for (let i = 0; i < restarts; i++) {
      await stopProcess(served.child);
      served = await serve(checkout, dataDir, served.token);
      startups.push(served.startupMs);
      cpu.push(served.cpuMs);
    }
    const busyStartups: number[] = [];
    const neighbour = busyNeighbour();
    try {
      for (let i = 0; i < restarts; i++) {
        await stopProcess(served.child);
        served = await serve(checkout, dataDir, served.token);
        busyStartups.push(served.startupMs);
      }
    } finally {
      await stopProcess(neighbour);
    }
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
    const painted = paint
      ? await consolePaint(served.consoleUrl).catch((error: Error) => `console paint failed: ${error.message}`)
      : 'not measured for this checkout';
    if (typeof painted === 'number') consolePaintMs = painted;
    else {
      skipped.push(`console first paint: ${painted}`);
      console.log(`skipping console first paint: ${painted}`);
    }
    await stopProcess(served.child);
    return {
      startupMs: spreadOf(startups),
      firstStartMs,
      startupBusyMs: spreadOf(busyStartups),
      startupCpuMs: spreadOf(cpu),
      rssIdleMb,
      rssLoadMb,
      rssAfterMb,
      rssWatchEndMb,
      rssSettledS,
      consolePaintMs,
      skipped,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

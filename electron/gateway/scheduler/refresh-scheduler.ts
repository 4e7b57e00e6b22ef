// The background scan: every interval, refreshes all non-terminal assets of all accounts, per reviewer channel with bounded concurrency and a request rate limit, skipping assets in backoff, never overlapping itself.
import type { AssetRefresher } from '../services/asset-refresh.ts';
import type { AssetRow, AssetsRepo } from '../storage/assets-repo.ts';
import type { MetaRepo } from '../storage/meta-repo.ts';
import type { Clock } from '../time.ts';

/** What one scan did. */
export interface ScanReport {
  startedAt: number;
  finishedAt: number;
  checked: number;
  /** Assets whose refresh threw something unexpected (upstream errors are stored in the asset, not counted here). */
  errors: number;
  /** Assets not terminal once the scan ended (those backing off included). */
  pending: number;
  /** Assets left alone because their refreshes keep failing (see services/refresh-backoff.ts). */
  backingOff: number;
  /** The last refresh error met (`ast_…: message`), or null. */
  lastError: string | null;
}

export interface RefreshSchedulerOptions {
  intervalMs: number;
  assets: AssetsRepo;
  meta: MetaRepo;
  refresher: AssetRefresher;
  clock: Clock;
  /** Refreshes running at once, per reviewer (the simulator, or each service channel). */
  concurrency?: number;
  /** Requests per second at most to each service channel (the simulator is not limited). */
  channelRatePerSecond?: number;
  /** Called after each scan, e.g. to log or to notify the UI. */
  onScan?: (report: ScanReport) => void;
  onError?: (error: unknown) => void;
}

const LAST_SCAN_KEY = 'refresh.last_scan_at';
const BATCH = 200;
/** Default refreshes at once per reviewer, and requests per second per service channel. */
export const SCAN_CONCURRENCY = 4;
export const SCAN_CHANNEL_RATE = 5;

export class RefreshScheduler {
  private readonly options: RefreshSchedulerOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<ScanReport> | undefined;
  /** Set by stop(): no new timer, and a scan under way takes no new assets. */
  private stopped = false;
  /** Epoch ms of the next planned scan, or null while stopped. */
  nextRunAt: number | null = null;

  constructor(options: RefreshSchedulerOptions) {
    this.options = options;
  }

  /** Starts the timer. The first scan comes one interval after the last stored scan, so a restart keeps the rhythm. */
  start(): void {
    this.stopped = false;
    const last = Number(this.options.meta.get(LAST_SCAN_KEY) ?? Number.NaN);
    const now = this.options.clock.now();
    const due = Number.isFinite(last) ? last + this.options.intervalMs : now + this.options.intervalMs;
    this.schedule(Math.max(0, Math.min(due - now, this.options.intervalMs)));
  }

  /** Changes the interval; a planned scan moves to one new interval after the last scan (or now, when that is past). */
  setIntervalMs(intervalMs: number): void {
    this.options.intervalMs = intervalMs;
    if (this.stopped || !this.timer || this.running) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.start();
  }

  /** The gateway's clock jumped forward: a planned scan now due runs at once (its timer counted real time). */
  clockMoved(): void {
    if (this.stopped || !this.timer || this.running || this.nextRunAt === null) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(Math.max(0, this.nextRunAt - this.options.clock.now()));
  }

  /** Stops the timer and waits for a scan under way to finish its current refreshes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.nextRunAt = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Runs a scan now, or joins the one already running. */
  runNow(): Promise<ScanReport> {
    if (!this.running) {
      this.running = this.scan().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.nextRunAt = this.options.clock.now() + delayMs;
    this.timer = setTimeout(() => {
      this.runNow()
        .then((report) => this.options.onScan?.(report))
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async scan(): Promise<ScanReport> {
    const { assets, refresher, clock, meta } = this.options;
    const startedAt = clock.now();
    let checked = 0;
    let errors = 0;
    let pending = 0;
    let backingOff = 0;
    let lastError: string | null = null;
    let cursor = 0;
    const limiters = new Map<string, RateLimiter>();
    const limiterOf = (channelId: string) => {
      let limiter = limiters.get(channelId);
      if (!limiter) limiters.set(channelId, (limiter = new RateLimiter(this.options.channelRatePerSecond ?? SCAN_CHANNEL_RATE)));
      return limiter;
    };
    const refreshOne = async (row: AssetRow) => {
      const channelId = row.reviewer_channel_id ?? null;
      if (channelId !== null) await limiterOf(channelId).take();
      try {
        const fresh = await refresher.refresh(row);
        if (fresh.refresh_error) lastError = `${fresh.asset_id}: ${fresh.refresh_error}`;
        if (fresh.status !== 'Active' && fresh.status !== 'Failed') pending += 1;
      } catch (error) {
        errors += 1;
        lastError = `${row.asset_id}: ${error instanceof Error ? error.message : String(error)}`;
        this.options.onError?.(error);
      }
      checked += 1;
    };
    for (;;) {
      const ids = assets.pendingIds(cursor, BATCH);
      if (ids.length === 0 || this.stopped) break;
      cursor = ids[ids.length - 1]!;
      // Each reviewer (the simulator, each channel) gets its own pool, so a slow or throttled upstream holds back only its assets.
      const byReviewer = new Map<string | null, AssetRow[]>();
      const now = clock.now();
      for (const id of ids) {
        const row = assets.findById(id);
        if (!row) continue;
        if (row.next_refresh_at != null && row.next_refresh_at > now) {
          backingOff += 1;
          pending += 1;
          continue;
        }
        const key = row.reviewer_channel_id ?? null;
        byReviewer.set(key, [...(byReviewer.get(key) ?? []), row]);
      }
      await Promise.all(
        [...byReviewer.values()].map((rows) => runPool(rows, this.options.concurrency ?? SCAN_CONCURRENCY, refreshOne, () => this.stopped)),
      );
    }
    // A scan cut short by stop() is not recorded, so the next start scans again without waiting a whole interval.
    if (!this.stopped) meta.set(LAST_SCAN_KEY, String(startedAt));
    return { startedAt, finishedAt: clock.now(), checked, errors, pending, backingOff, lastError };
  }
}

/** Spaces the starts of requests to one channel at least 1/rate seconds apart. */
class RateLimiter {
  private readonly spacingMs: number;
  private nextAt = 0;
  constructor(perSecond: number) {
    this.spacingMs = 1000 / Math.max(0.001, perSecond);
  }

  /** Resolves when the next request may start. */
  async take(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.spacingMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}

/** Runs `work` over `items` with at most `limit` at once; stops taking new items once `halt()` is true. */
async function runPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>, halt: () => boolean) {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !halt()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

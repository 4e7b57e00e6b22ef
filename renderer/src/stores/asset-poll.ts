// Polls each non-terminal asset the console shows, as the portrait client flow does: 1 s after it shows up, then every 3 s backing off to 10 s.

/** The wait before the first check of an asset that shows up (short, so a quick review is seen in Processing). */
export const POLL_SIGHT_MS = 1000;
/** The wait before the second check of an asset. */
export const POLL_FIRST_MS = 3000;
/** The longest wait between two checks of an asset. */
export const POLL_MAX_MS = 10_000;
/** Each wait is this many times the one before, up to POLL_MAX_MS. */
export const POLL_BACKOFF = 1.5;

/** The timer functions the poller uses (tests pass fake ones). */
export interface PollTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface AssetPoller {
  /** The assets to poll now: new ids are checked after POLL_SIGHT_MS, ids no longer named stop being polled. */
  track(assetIds: readonly string[]): void;
  /** Stops every timer. */
  stop(): void;
}

interface Watch {
  delay: number;
  timer: unknown;
}

/**
 * A poller over `check`, which asks the gateway about one asset (the answer reaches the store by itself) and
 * resolves false once the asset is terminal. A failed check counts as "not yet": the next one waits longer.
 */
export function createAssetPoller(
  check: (assetId: string) => Promise<boolean>,
  timers: PollTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
): AssetPoller {
  const watches = new Map<string, Watch>();
  const schedule = (assetId: string, watch: Watch, ms: number) => {
    watch.timer = timers.setTimeout(() => void run(assetId, watch), ms);
  };
  const run = async (assetId: string, watch: Watch) => {
    watch.timer = undefined;
    const pending = await check(assetId).catch(() => true);
    // Untracked (or tracked anew) while the check was under way: that watch is no longer this one's.
    if (watches.get(assetId) !== watch) return;
    if (!pending) {
      watches.delete(assetId);
      return;
    }
    schedule(assetId, watch, watch.delay);
    watch.delay = Math.min(Math.round(watch.delay * POLL_BACKOFF), POLL_MAX_MS);
  };
  return {
    track(assetIds) {
      const wanted = new Set(assetIds);
      for (const [assetId, watch] of watches) {
        if (wanted.has(assetId)) continue;
        if (watch.timer !== undefined) timers.clearTimeout(watch.timer);
        watches.delete(assetId);
      }
      for (const assetId of wanted) {
        if (watches.has(assetId)) continue;
        const watch: Watch = { delay: POLL_FIRST_MS, timer: undefined };
        watches.set(assetId, watch);
        schedule(assetId, watch, POLL_SIGHT_MS);
      }
    },
    stop() {
      for (const watch of watches.values()) if (watch.timer !== undefined) timers.clearTimeout(watch.timer);
      watches.clear();
    },
  };
}

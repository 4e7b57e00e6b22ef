// After a burst of calls has ended, asks V8 once for a memory-reducing collection, so resident memory returns near idle instead of staying at the burst's peak.
import type { Server } from 'node:http';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the watch looks; a burst is over after one whole period without a new request. */
export const IDLE_MEMORY_CHECK_MS = 5_000;
/** V8 heap grown by less than this since the last collection (or the start) is left alone. */
export const IDLE_MEMORY_MIN_GROWTH_BYTES = 24 * 1024 * 1024;

export interface IdleMemoryOptions {
  checkMs?: number;
  minGrowthBytes?: number;
}

type Collect = () => void;

/**
 * V8's collector in its memory-reducing form (the one a low-memory notification runs: the young generation shrinks back to its
 * first size and the old generation's free pages go back to the system). Nothing is put on the global: the function is taken
 * from a throwaway context while the flag is on, and the flag is turned off again at once.
 */
function memoryReducingCollection(): Collect {
  v8.setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('gc') as (options: object) => void;
    return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * V8 does not give back what a burst grew on its own: the young generation stays at the size the burst took it to, and the
 * garbage a burst promoted is only collected when the old generation fills again, which an idle gateway never does. So, once
 * the requests of `server` stop for a whole period and the heap has grown by `minGrowthBytes` since the last collection, one
 * collection runs (tens of ms on an idle event loop, once per burst). Returns the stop function.
 */
export function watchIdleMemory(server: Server, options: IdleMemoryOptions = {}): () => void {
  const checkMs = options.checkMs ?? IDLE_MEMORY_CHECK_MS;
  const minGrowthBytes = options.minGrowthBytes ?? IDLE_MEMORY_MIN_GROWTH_BYTES;
  let requests = 0;
  let busy = false;
  let collect: Collect | undefined;
  let baseline = v8.getHeapStatistics().total_heap_size;
  const onRequest = () => requests++;
  server.on('request', onRequest);
  const timer = setInterval(() => {
    if (requests > 0) {
      requests = 0;
      busy = true;
      return;
    }
    if (!busy) return;
    busy = false;
    if (v8.getHeapStatistics().total_heap_size - baseline < minGrowthBytes) return;
    collect ??= memoryReducingCollection();
    collect();
    baseline = v8.getHeapStatistics().total_heap_size;
  }, checkMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', onRequest);
  };
}

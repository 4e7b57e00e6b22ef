// The `x-gatehouse-pace` test header: how many stream pieces per second a simulated answer is paced at, and the pacing itself.

/** Streaming pace from `x-gatehouse-pace` (pieces per second), when given as a positive number. */
export function paceOfHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): number | undefined {
  const value = Number(headers['x-gatehouse-pace']);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Yields `items` with 1/pace s between them (none before the first, none after the last), and stops once `signal` aborts. */
export async function* paced<T>(items: Iterable<T>, pace: number | undefined, signal: AbortSignal): AsyncGenerator<T> {
  const delayMs = pace ? 1000 / pace : 0;
  let first = true;
  for (const item of items) {
    if (signal.aborted) return;
    if (!first && delayMs > 0) await sleep(delayMs, signal);
    if (signal.aborted) return;
    first = false;
    yield item;
  }
}

/** Waits `ms`, or less when `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

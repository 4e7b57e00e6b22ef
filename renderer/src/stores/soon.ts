// A reload asked for by a burst of events, run once a moment after the first of them.

/** A function that runs `work` `delayMs` after its first call, once for every call made meanwhile. */
export function onceSoon(work: () => void, delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      work();
    }, delayMs);
  };
}

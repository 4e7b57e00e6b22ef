// Test helper: waits for something the gateway does a moment after a call, by polling, with a bound generous enough for a busy machine.

/** How long a test waits for something that happens in milliseconds on a quiet machine: a bound, never a speed. */
export const PATIENCE_MS = 30_000;

/**
 * Polls `probe` every `everyMs` until it gives something other than undefined, null or false, and resolves with it;
 * rejects naming `what` after `withinMs` (PATIENCE_MS unless told).
 */
export async function eventually<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  { withinMs = PATIENCE_MS, everyMs = 20 }: { withinMs?: number; everyMs?: number } = {},
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== null && found !== false) return found;
    if (Date.now() > until) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

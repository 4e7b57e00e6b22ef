// An answer a test double holds until the test lets it land: a promise with its resolve (Promise.withResolvers, below the project's lib target).
export interface HeldAnswer<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function heldAnswer<T>(): HeldAnswer<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Waits a bounded number of event-loop turns until `ready`; a store's calls start after awaits of their own. */
export async function turnsUntil(ready: () => boolean, turns = 100): Promise<boolean> {
  for (let turn = 0; turn < turns && !ready(); turn += 1) await new Promise((settle) => setImmediate(settle));
  return ready();
}

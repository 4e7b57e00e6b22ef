// Answers a test double holds until the test lets them land: a promise with its resolve (Promise.withResolvers, below the project's lib target), one per call in order, and a bounded wait for a store's call.
export interface HeldAnswer<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function heldAnswer<T>(): HeldAnswer<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** A test double's answers, one held answer per call (`next`), in `answers` in the order they were asked for. */
export function heldAnswers<T>(): { answers: HeldAnswer<T>[]; next: () => Promise<T> } {
  const answers: HeldAnswer<T>[] = [];
  return {
    answers,
    next: () => {
      const answer = heldAnswer<T>();
      answers.push(answer);
      return answer.promise;
    },
  };
}

/** Waits a bounded number of event-loop turns until `ready`; a store's calls start after awaits of their own. */
export async function turnsUntil(ready: () => boolean, turns = 100): Promise<boolean> {
  for (let turn = 0; turn < turns && !ready(); turn += 1) await new Promise((settle) => setImmediate(settle));
  return ready();
}

// Streams whose items are all at hand (a simulated answer not paced): pulled synchronously, with a Hold where the consumer must wait.

/**
 * A point inside a synchronous stream, passed on unchanged by every stage: whoever writes the stream out waits for
 * `done` (when given) before passing on anything that follows it (a stream's charge committed before its usage event
 * goes out), and calls `sent` (when given) just before what follows it goes out (the first output's time noted when
 * the client is sent it).
 */
export class Hold {
  readonly done: Promise<void> | undefined;
  readonly sent: (() => void) | undefined;
  constructor(done: Promise<void> | undefined, sent?: () => void) {
    this.done = done;
    this.sent = sent;
  }
}

/** A stream pulled synchronously: its items, and the Holds among them. */
export type AtHand<T> = Iterable<T | Hold>;

/** A stream's items: all at hand (pulled synchronously, Holds among them), or as they arrive. */
export type AtHandOrAsync<T> = AtHand<T> | AsyncIterable<T>;

/** True when `items` are pulled synchronously. */
export function isAtHand<T>(items: AtHandOrAsync<T>): items is AtHand<T> {
  return Symbol.iterator in items;
}

/** How a stage turns a stream: what it makes before the first item, of each item, and after the last (pushed on `out`, zero or more each). */
export interface Steps<T, U> {
  begin?(out: U[]): void;
  step(item: T, out: U[]): void;
  end?(out: U[]): void;
  /** What it still sends when its async source fails, before the failure goes on. */
  fail?(out: U[]): void;
  /**
   * Items taken together, at hand only (the async path steps each, as each leaves on its own): `joins` tells whether
   * `item` joins `run` (empty: starts one) instead of being stepped; `made` turns the run into one item (its events made
   * in one pass), given out where its first item stood. The item after a run is pulled before the run is given out (only
   * it tells the run ended), so a source should not start anything on that pull that a consumer stopping at the run must
   * not see started (the metering's charge starts at the usage delta, which a finish always precedes in a simulated answer).
   */
  gather?: { joins(item: T, run: readonly T[]): boolean; made(run: readonly T[]): U };
}

/**
 * A stream's items turned by `steps`, Holds passed on where they stood: the synchronous twin of `stepAsync`, so a
 * stage writes its rules once for both.
 */
export function* stepAtHand<T, U>(items: AtHand<T>, steps: Steps<T, U>): Generator<U | Hold> {
  const out: U[] = [];
  // `out` is emptied only every STEPPED_KEPT items: emptying it drops its storage, which the next step would make again.
  let next = 0;
  const gather = steps.gather;
  let run: T[] = [];
  steps.begin?.(out);
  while (next < out.length) yield out[next++]!;
  for (const item of items) {
    if (gather && !(item instanceof Hold) && gather.joins(item, run)) {
      run.push(item);
      continue;
    }
    if (run.length > 0) {
      const made = gather!.made(run);
      run = [];
      yield made;
    }
    if (item instanceof Hold) {
      yield item;
      continue;
    }
    steps.step(item, out);
    while (next < out.length) yield out[next++]!;
    if (next >= STEPPED_KEPT) {
      out.length = 0;
      next = 0;
    }
  }
  if (run.length > 0) yield gather!.made(run);
  steps.end?.(out);
  while (next < out.length) yield out[next++]!;
}

/** Items a synchronous stage keeps made before it lets them go (see `stepAtHand`). */
const STEPPED_KEPT = 64;

/** The same steps over an async stream. */
export async function* stepAsync<T, U>(items: AsyncIterable<T>, steps: Steps<T, U>): AsyncGenerator<U> {
  const out: U[] = [];
  steps.begin?.(out);
  yield* out.splice(0);
  try {
    for await (const item of items) {
      steps.step(item, out);
      for (let index = 0; index < out.length; index++) yield out[index]!;
      out.length = 0;
    }
  } catch (error) {
    out.length = 0;
    steps.fail?.(out);
    yield* out;
    throw error;
  }
  steps.end?.(out);
  yield* out;
}

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
 * stage writes its rules once for both. An iterator written out (a generator's resume per item was a stream's largest
 * own cost) that steps as the generator it replaces did: `begin` on the first pull, `items` opened once what `begin`
 * made is given out, each item pulled only when what came before is given out (the item after a run before the run),
 * `end` on the pull after the last item (and the last run); `items` are closed when the consumer returns while they
 * are open, or when a step throws (not when they threw themselves).
 */
export function stepAtHand<T, U>(items: AtHand<T>, steps: Steps<T, U>): IterableIterator<U | Hold> {
  return new SteppedAtHand(items, steps);
}

/** Where a `SteppedAtHand` stands: before its first pull, among the items, past the last item (`end` not yet made), or ended. */
const FRESH = 0;
const ITEMS = 1;
const LAST = 2;
const ENDED_STAGE = 3;

/** What an iterator gives once it ended. */
export const ENDED: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/** What `PulledItems.next` answers once the items ended. */
export const NO_MORE: unique symbol = Symbol('no more items');

/**
 * The items of a stream at hand as an iterator written out pulls them (`stepAtHand`'s, the metering's): an array read by
 * index, any other iterable through its iterator, opened on the first pull; closed at most once, and not once they ended
 * or threw (as a for-of leaves them).
 */
export class PulledItems<T> {
  private readonly items: AtHand<T>;
  private opened = false;
  /** The items when they are an array (a kept answer's frozen deltas): read by index, no iterator between. */
  private array: readonly (T | Hold)[] | undefined;
  private index = 0;
  /** The items' iterator while it is open (pulled, not ended, not thrown, not closed). */
  private source: Iterator<T | Hold> | undefined;

  constructor(items: AtHand<T>) {
    this.items = items;
  }

  /** The next item or Hold, NO_MORE once they ended; what the items throw goes on (they are then not closed). */
  next(): T | Hold | typeof NO_MORE {
    if (!this.opened) {
      this.opened = true;
      const items = this.items;
      if (Array.isArray(items)) this.array = items as readonly (T | Hold)[];
      else this.source = items[Symbol.iterator]();
    }
    const array = this.array;
    if (array !== undefined) return this.index < array.length ? array[this.index++]! : NO_MORE;
    const source = this.source;
    if (source === undefined) return NO_MORE;
    // Items that ended or threw are not closed again.
    this.source = undefined;
    const next = source.next();
    if (next.done) return NO_MORE;
    this.source = source;
    return next.value;
  }

  /**
   * No more pulls: the items are closed when still open (never opened ones are not opened). `quietly`: a step threw, and
   * as a for-of closing its items on a throw, that error goes on, not one of closing them.
   */
  close(quietly = false): void {
    this.opened = true;
    this.array = undefined;
    const source = this.source;
    this.source = undefined;
    if (source === undefined) return;
    if (!quietly) {
      source.return?.();
      return;
    }
    try {
      source.return?.();
    } catch {
      // The step's error is the one that goes on.
    }
  }
}

class SteppedAtHand<T, U> implements IterableIterator<U | Hold> {
  private readonly steps: Steps<T, U>;
  private stage = FRESH;
  private readonly pulled: PulledItems<T>;
  // `out` is emptied only every STEPPED_KEPT items: emptying it drops its storage, which the next step would make again.
  private readonly out: U[] = [];
  private given = 0;
  private run: T[] = [];
  /** The item that ended a run, pulled before the run was given out and turned on the next pull. */
  private after: T | Hold | undefined;
  private hasAfter = false;

  constructor(items: AtHand<T>, steps: Steps<T, U>) {
    this.pulled = new PulledItems(items);
    this.steps = steps;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<U | Hold> {
    const out = this.out;
    try {
      for (;;) {
        if (this.given < out.length) return { value: out[this.given++]!, done: false };
        if (this.given >= STEPPED_KEPT) {
          out.length = 0;
          this.given = 0;
        }
        switch (this.stage) {
          case FRESH:
            this.stage = ITEMS;
            this.steps.begin?.(out);
            continue;
          case LAST:
            this.stage = ENDED_STAGE;
            this.steps.end?.(out);
            continue;
          case ENDED_STAGE:
            return ENDED;
        }
        let item: T | Hold;
        // The item that ended a run is stepped on its own, never the start of the next run (as the generator did).
        let heldOver = false;
        if (this.hasAfter) {
          item = this.after!;
          this.after = undefined;
          this.hasAfter = false;
          heldOver = true;
        } else {
          const next = this.pulled.next();
          if (next === NO_MORE) {
            this.stage = LAST;
            if (this.run.length > 0) return { value: this.made(), done: false };
            continue;
          }
          item = next;
        }
        const gather = this.steps.gather;
        if (gather && !heldOver && !(item instanceof Hold) && gather.joins(item, this.run)) {
          this.run.push(item);
          continue;
        }
        if (this.run.length > 0) {
          const made = this.made();
          this.after = item;
          this.hasAfter = true;
          return { value: made, done: false };
        }
        if (item instanceof Hold) return { value: item, done: false };
        this.steps.step(item, out);
      }
    } catch (error) {
      this.close(true);
      throw error;
    }
  }

  /** The consumer stopped: the items are closed when open. */
  return(): IteratorReturnResult<undefined> {
    this.close(false);
    return ENDED;
  }

  /** Ended: nothing made is given out any more, and the items are closed when open (`quietly`: a step threw). */
  private close(quietly: boolean): void {
    this.stage = ENDED_STAGE;
    this.out.length = 0;
    this.given = 0;
    this.pulled.close(quietly);
  }

  /** The run gathered so far, made into one item (a new run starts: a made item may keep the old one). */
  private made(): U {
    const run = this.run;
    this.run = [];
    return this.steps.gather!.made(run);
  }
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

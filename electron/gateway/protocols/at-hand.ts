// Streams whose items are all at hand (a simulated answer not paced): pulled synchronously, with a Hold where the consumer must wait.

/**
 * A wait inside a synchronous stream: whoever writes the stream out waits for `done` before passing on anything that
 * follows it (a stream's charge committed before its usage event goes out). Every stage passes a Hold on unchanged.
 */
export class Hold {
  readonly done: Promise<void>;
  constructor(done: Promise<void>) {
    this.done = done;
  }
}

/** A stream pulled synchronously: its items, and the Holds among them. */
export type AtHand<T> = Iterable<T | Hold>;

/**
 * A stream's items turned one by one into what `step` makes of each (pushed on `out`, zero or more), then what `end`
 * makes, Holds passed on where they stood: the synchronous twin of a stage's loop over an async stream, sharing its steps.
 */
export function* stepAtHand<T, U>(items: AtHand<T>, step: (item: T, out: U[]) => void, end: (out: U[]) => void): Generator<U | Hold> {
  const out: U[] = [];
  for (const item of items) {
    if (item instanceof Hold) {
      yield item;
      continue;
    }
    step(item, out);
    for (let index = 0; index < out.length; index++) yield out[index]!;
    out.length = 0;
  }
  end(out);
  yield* out;
}

/** The same steps over an async stream. */
export async function* stepAsync<T, U>(
  items: AsyncIterable<T>,
  step: (item: T, out: U[]) => void,
  end: (out: U[]) => void,
): AsyncGenerator<U> {
  const out: U[] = [];
  for await (const item of items) {
    step(item, out);
    for (let index = 0; index < out.length; index++) yield out[index]!;
    out.length = 0;
  }
  end(out);
  yield* out;
}

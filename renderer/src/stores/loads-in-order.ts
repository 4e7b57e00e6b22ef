// A store's loads of what the gateway holds: an answer older than one already shown is dropped, and so is one of a query the page has left; one that a change the store made meanwhile may predate is asked again.
import { messageOf } from './storage.ts';

export interface Loads {
  /**
   * Asks `fetch` and shows its answer through `show` (`latest`: no later load is under way), or its failure through
   * `fail`, unless a later load's answer is shown already; asks again while a change the store made itself (`changed`)
   * landed during the ask, as the answer may not hold it.
   */
  run<T>(
    fetch: () => Promise<T>,
    show: (value: T, latest: boolean) => void,
    fail: (error: unknown, latest: boolean) => void,
  ): Promise<void>;
  /** The store changed what it shows itself (an item created, edited or removed, settings saved): a load under way may predate it. */
  changed(): void;
  /** The page asks for something else now (another account, filter or sort): the answers of the loads under way are dropped. */
  moved(): void;
}

export function loadsInOrder(): Loads {
  let begun = 0;
  let shown = 0;
  let changes = 0;
  /** The last load begun before the page last moved. */
  let left = 0;
  const dropped = (ticket: number) => ticket < shown || ticket <= left;
  return {
    async run(fetch, show, fail) {
      for (;;) {
        const ticket = ++begun;
        const seen = changes;
        let value;
        try {
          value = await fetch();
        } catch (error) {
          if (dropped(ticket)) return;
          shown = ticket;
          fail(error, ticket === begun);
          return;
        }
        if (dropped(ticket)) return;
        // A later load under way answers instead: it began after the change, or asks again itself. Asked again here, this
        // one would take a turn after it (a page the user left shown over the one they chose).
        if (changes !== seen) {
          if (ticket !== begun) return;
          continue;
        }
        shown = ticket;
        show(value, ticket === begun);
        return;
      }
    },
    changed() {
      changes += 1;
    },
    moved() {
      left = begun;
    },
  };
}

/** A store whose one load shows its answer beside the usual `loading` and `error`. */
interface Loading {
  loading: boolean;
  error: string | null;
}

/**
 * The usual load through `loads`: `loading` on, then what `shown` makes of the answer (its `error` cleared, `loading`
 * off once the latest load has landed), or its failure's message into `error`.
 */
export function loadShowing<S extends Loading, T>(
  loads: Loads,
  set: (partial: Partial<S>) => void,
  fetch: () => Promise<T>,
  shown: (value: T) => Partial<S>,
): Promise<void> {
  set({ loading: true } as Partial<S>);
  return loads.run(
    fetch,
    (value, latest) => set({ ...shown(value), error: null, loading: !latest }),
    (error, latest) => set({ error: messageOf(error), loading: !latest } as Partial<S>),
  );
}

/** `loadShowing` of an answer kept as it is, in `field`. */
export function loadInto<S extends Loading, K extends keyof S>(
  loads: Loads,
  set: (partial: Partial<S>) => void,
  field: K,
  fetch: () => Promise<S[K]>,
): Promise<void> {
  return loadShowing(loads, set, fetch, (value) => {
    const partial: Partial<S> = {};
    partial[field] = value;
    return partial;
  });
}

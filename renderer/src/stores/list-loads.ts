// A store's list loads: only the answer of the latest one is shown, and one that a change the store made meanwhile may predate is asked again.

/** What to do with a load's answer: show it, drop it (a later load answers), or load again (a change made here since it began may be missing). */
export type LoadVerdict = 'show' | 'drop' | 'again';

export interface ListLoads {
  /** Called as a load begins; the function it returns judges that load's answer once it is in. */
  begin(): () => LoadVerdict;
  /** The store changed its list itself (an item created, edited or removed): a load begun before may not hold the change. */
  changed(): void;
}

export function listLoads(): ListLoads {
  let begun = 0;
  let changes = 0;
  return {
    begin() {
      const ticket = ++begun;
      const seen = changes;
      return () => (ticket !== begun ? 'drop' : changes !== seen ? 'again' : 'show');
    },
    changed() {
      changes += 1;
    },
  };
}

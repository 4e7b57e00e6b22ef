// Folds a commit's items into groups by key, an item of the same group as the one before it (the usual run) joining it without a key made or looked up.

/** How items fall into groups: whether an item belongs to a group, its key, a group it starts, and adding it to one. */
export interface Grouping<T, G> {
  belongs(group: G, item: T): boolean;
  keyOf(item: T): string;
  start(item: T): G;
  add(group: G, item: T): void;
}

/** The groups of `items`, in the order first met: the same groups and totals as looking up every item's key. */
export function groupRuns<T, G>(items: readonly T[], grouping: Grouping<T, G>): IterableIterator<G> {
  const groups = new Map<string, G>();
  let last: G | undefined;
  for (const item of items) {
    if (last !== undefined && grouping.belongs(last, item)) {
      grouping.add(last, item);
      continue;
    }
    const key = grouping.keyOf(item);
    const found = groups.get(key);
    if (found === undefined) groups.set(key, (last = grouping.start(item)));
    else {
      grouping.add(found, item);
      last = found;
    }
  }
  return groups.values();
}

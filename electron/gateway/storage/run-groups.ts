// Folds a commit's items into groups, an item of the same group as the one before it (the usual run) joining it at once, and the few groups of a commit found by comparing fields, without a key made or looked up.

/** How items fall into groups: whether an item belongs to a group, its key, a group it starts, and adding it to one. */
export interface Grouping<T, G> {
  belongs(group: G, item: T): boolean;
  keyOf(item: T): string;
  start(item: T): G;
  add(group: G, item: T): void;
}

/** Groups of one commit found by comparing each (`belongs`); past this many, by their keys in a map. */
export const GROUPS_COMPARED = 8;

/** The groups of `items`, in the order first met: the same groups and totals as looking up every item's key. */
export function groupRuns<T, G>(items: readonly T[], grouping: Grouping<T, G>): G[] {
  const groups: G[] = [];
  /** The first item of each group (its key, once the groups are looked up by key). */
  const firsts: T[] = [];
  let byKey: Map<string, G> | undefined;
  let last: G | undefined;
  for (const item of items) {
    if (last !== undefined && grouping.belongs(last, item)) {
      grouping.add(last, item);
      continue;
    }
    let found: G | undefined;
    if (byKey === undefined) {
      for (const group of groups)
        if (grouping.belongs(group, item)) {
          found = group;
          break;
        }
      if (found === undefined && groups.length >= GROUPS_COMPARED)
        byKey = new Map(firsts.map((first, index) => [grouping.keyOf(first), groups[index]!]));
    } else found = byKey.get(grouping.keyOf(item));
    if (found !== undefined) {
      grouping.add(found, item);
      last = found;
      continue;
    }
    last = grouping.start(item);
    groups.push(last);
    if (byKey === undefined) firsts.push(item);
    else byKey.set(grouping.keyOf(item), last);
  }
  return groups;
}

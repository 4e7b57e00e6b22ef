// Which enabled channels of a kind serve a model for one relayed call, and in which order: resting ones left out (unless all rest), priority first, weighted random within one priority.
import type { ChannelKind } from '../providers/types.ts';
import type { ChannelRow } from '../storage/channels-repo.ts';
import { storedModels, upstreamModelOf } from './channel-models.ts';

/** A channel row serving the call, with the model name sent upstream on it. */
export interface Serving {
  row: Readonly<ChannelRow>;
  upstream: string;
}

/**
 * The enabled `kind` rows of `rows` (highest priority first) serving `model`, those not `resting` at `now`, in the order to
 * try: each run of equal priority shuffled by weight with `random`. When every one rests, all of them: an SDK's own
 * retries never turn a lone provider into refusals. Allocates no more than the answer in the usual case (one channel,
 * or one per priority, none resting).
 */
export function servingInOrder(
  rows: readonly Readonly<ChannelRow>[],
  model: string,
  kind: ChannelKind,
  resting: (row: Readonly<ChannelRow>) => boolean,
  random: () => number,
): Serving[] {
  const all: Serving[] = [];
  let rested = 0;
  let tied = false;
  for (const row of rows) {
    if (row.enabled !== 1 || row.kind !== kind) continue;
    const upstream = upstreamModelOf(storedModels(row.models), model);
    if (upstream === undefined) continue;
    if (resting(row)) rested += 1;
    tied ||= all.length > 0 && all[all.length - 1]!.row.priority === row.priority;
    all.push({ row, upstream });
  }
  const serving = rested === 0 || rested === all.length ? all : all.filter((entry) => !resting(entry.row));
  return tied ? byPriorityThenWeight(serving, random) : serving;
}

/** `serving` (highest priority first) with each run of equal priority shuffled by weight. */
function byPriorityThenWeight(serving: Serving[], random: () => number): Serving[] {
  const ordered: Serving[] = [];
  for (let start = 0; start < serving.length;) {
    let end = start;
    while (end < serving.length && serving[end]!.row.priority === serving[start]!.row.priority) end += 1;
    if (end - start === 1) ordered.push(serving[start]!);
    else ordered.push(...weightedOrder(serving.slice(start, end), random));
    start = end;
  }
  return ordered;
}

/** Picks without replacement, each pick with a chance proportional to its weight. */
function weightedOrder(left: Serving[], random: () => number): Serving[] {
  const out: Serving[] = [];
  while (left.length > 0) {
    const total = left.reduce((sum, item) => sum + item.row.weight, 0);
    let point = random() * total;
    let index = 0;
    while (index < left.length - 1 && point >= left[index]!.row.weight) {
      point -= left[index]!.row.weight;
      index += 1;
    }
    out.push(...left.splice(index, 1));
  }
  return out;
}

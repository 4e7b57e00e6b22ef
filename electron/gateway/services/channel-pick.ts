// The channels one relayed call tries, in order, with their keys: the list at once when every key is at hand (the usual call), else a promise that reads the others from the secret store.
import type { RelayChannel } from '../providers/types.ts';
import type { ChannelRow } from '../storage/channels-repo.ts';
import type { ChannelKeys } from './channel-keys.ts';
import type { Serving } from './channel-order.ts';

/** What the pick notes on a channel it cannot call. */
export interface PickNotes {
  /** Each of `rows` has a key, but the secret store has none for it. */
  keyless(rows: readonly Readonly<ChannelRow>[]): void;
  /** The secret store failed to read `row`'s key. */
  storeFailed(row: Readonly<ChannelRow>, error: Error): void;
}

/**
 * The channels of `serving` (in the order to try) with their keys, those without one left out and noted. The keys read
 * from the store a moment ago are used as they are: with all of them at hand this is the list itself, no promise; else
 * a promise, the missing keys read in order.
 */
export function channelsWithKeys(
  serving: readonly Serving[],
  now: number,
  keys: ChannelKeys,
  notes: PickNotes,
): RelayChannel[] | Promise<RelayChannel[]> {
  const channels: RelayChannel[] = [];
  const keyless: Readonly<ChannelRow>[] = [];
  const index = keptChannels(serving, 0, now, keys, channels, keyless);
  if (index < serving.length) return readChannels(serving, index, now, keys, notes, channels, keyless);
  notes.keyless(keyless);
  return channels;
}

/** The rest of `channelsWithKeys` from `from`, the first channel whose key must be read from the store. */
async function readChannels(
  serving: readonly Serving[],
  from: number,
  now: number,
  keys: ChannelKeys,
  notes: PickNotes,
  channels: RelayChannel[],
  keyless: Readonly<ChannelRow>[],
): Promise<RelayChannel[]> {
  for (let index = from; index < serving.length; index++) {
    index = keptChannels(serving, index, now, keys, channels, keyless);
    if (index === serving.length) break;
    const { row, upstream } = serving[index]!;
    let channel: RelayChannel | null;
    try {
      channel = await keys.read(row, upstream, now);
    } catch (error) {
      notes.storeFailed(row, error as Error);
      continue;
    }
    if (channel) channels.push(channel);
    else keyless.push(row);
  }
  notes.keyless(keyless);
  return channels;
}

/**
 * Pushes the channels of `serving` from `from` on whose keys are at hand onto `channels` in order (the rows that have no
 * key onto `keyless`), up to the first whose key must be read from the store: returns its index (the list's length when
 * there is none).
 */
function keptChannels(
  serving: readonly Serving[],
  from: number,
  now: number,
  keys: ChannelKeys,
  channels: RelayChannel[],
  keyless: Readonly<ChannelRow>[],
): number {
  for (let index = from; index < serving.length; index++) {
    const { row, upstream } = serving[index]!;
    const channel = keys.kept(row, upstream, now);
    if (channel === undefined) return index;
    if (channel) channels.push(channel);
    else keyless.push(row);
  }
  return serving.length;
}

// A channel directory's candidates as a promise, for one kind or several: `candidates` may answer at once, and so throw at once.
import type { ChannelDirectory, ChannelKind, RelayChannel } from '../types.ts';

/** `channels.candidates` as a promise (a throw is its rejection, as from an async method). */
export function candidatesOf(channels: ChannelDirectory, model: string, kind: ChannelKind): Promise<RelayChannel[]> {
  try {
    return Promise.resolve(channels.candidates(model, kind));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * The candidate channels of every kind in `kinds`, best priority first. Each kind's are asked as a promise, so a kind
 * whose directory throws at once rejects the whole, and never leaves another kind's pending promise without a handler.
 */
export async function candidatesOfKinds(channels: ChannelDirectory, model: string, kinds: readonly ChannelKind[]): Promise<RelayChannel[]> {
  const lists = await Promise.all(kinds.map((kind) => candidatesOf(channels, model, kind)));
  return lists.flat().sort((a, b) => b.priority - a.priority);
}

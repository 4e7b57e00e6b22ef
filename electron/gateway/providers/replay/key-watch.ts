// The channel keys a recording must keep out of its cassettes: every key relay routing handed out this run, learned by watching the channel directory.
import { keyParts, secretHint } from '../../../../shared/channels.ts';
import type { HiddenSecret } from '../../../../shared/secret-scrub.ts';
import type { ChannelDirectory } from '../types.ts';

/** A directory whose `candidates` note each channel key they return, and those keys as secrets to hide (each half of an `AK:SK` too). */
export function watchingKeys(directory: ChannelDirectory): { directory: ChannelDirectory; hidden: () => HiddenSecret[] } {
  const keys = new Set<string>();
  return {
    directory: {
      kindsServing: (model) => directory.kindsServing(model),
      wiresServing: (model) => directory.wiresServing(model),
      candidates: async (model, kind) => {
        const found = await directory.candidates(model, kind);
        for (const channel of found) if (channel.key) keys.add(channel.key);
        return found;
      },
      record: (channelId, outcome) => directory.record(channelId, outcome),
      listedModels: () => directory.listedModels(),
    },
    hidden: () => [...keys].flatMap((key) => keyParts(key).map((part) => ({ secret: part, hint: secretHint(part) }))),
  };
}

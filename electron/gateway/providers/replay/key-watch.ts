// The channel keys a recording must keep out of its cassettes: every key this run handed to an upstream (relay channels, and the platform and volcengine service channels of portrait reviews and 3D tasks), learned by watching the directories they come from.
import { keyParts, secretHint } from '../../../../shared/channels.ts';
import type { HiddenSecret } from '../../../../shared/secret-scrub.ts';
import type { ChannelDirectory, RelayChannel, ServiceChannelDirectory } from '../types.ts';

/** One watch over every kind of channel the recorder can see: what it learned is hidden in every cassette and blob saved after. */
export class KeyWatch {
  private readonly keys = new Set<string>();

  /** The keys as secrets to hide (each half of an `AK:SK` too). */
  hidden(): HiddenSecret[] {
    return [...this.keys].flatMap((key) => keyParts(key).map((part) => ({ secret: part, hint: secretHint(part) })));
  }

  /** A relay directory whose `candidates` note each channel key they return. */
  relay(directory: ChannelDirectory): ChannelDirectory {
    return {
      kindsServing: (model) => directory.kindsServing(model),
      wiresServing: (model) => directory.wiresServing(model),
      candidates: (model, kind) => {
        const found = directory.candidates(model, kind);
        return Array.isArray(found) ? this.noted(found) : found.then((list) => this.noted(list));
      },
      record: (channelId, outcome) => directory.record(channelId, outcome),
      listedModels: () => directory.listedModels(),
    };
  }

  /** A service directory whose `serviceChannel` notes the key of each channel it returns (the reviewers' and the 3D upstream's). */
  services(directory: ServiceChannelDirectory): ServiceChannelDirectory {
    return {
      enabledServiceChannels: (filter) => directory.enabledServiceChannels(filter),
      serviceChannel: async (id, model) => {
        const channel = await directory.serviceChannel(id, model);
        this.note(channel?.key);
        return channel;
      },
    };
  }

  /** `channels`, each one's key noted. */
  private noted(channels: RelayChannel[]): RelayChannel[] {
    for (const channel of channels) this.note(channel.key);
    return channels;
  }

  private note(key: string | null | undefined): void {
    if (key) this.keys.add(key);
  }
}

// The channel keys relay calls with: read from the secret store and kept a short while per channel revision, and the RelayChannel made of a row with its key.
import type { RelayChannel } from '../providers/types.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { ChannelRow } from '../storage/channels-repo.ts';
import { relayChannelFrom } from './channel-facts.ts';

/** The secret store entry of a channel's key (token secrets are `token:…`, so the two never collide). */
export const channelSecretName = (channelId: string): string => `channel:${channelId}`;

/** How long a key read from the secret store is reused (a change of the channel's revision drops it at once). */
const KEY_CACHE_MS = 10_000;

/** The keys read from the secret store lately, one per channel, each for the revision of the channel it was read for. */
export class ChannelKeys {
  private readonly secrets: SecretStore;
  private readonly keys = new Map<string, { revision: number; key: string | null; readAt: number }>();

  constructor(secrets: SecretStore) {
    this.secrets = secrets;
  }

  /**
   * The channel for relay when its key needs no read of the store (it has none, or one read within KEY_CACHE_MS for its
   * revision); null when the store was found without its key; undefined when the store must be asked (`read`).
   */
  kept(row: Readonly<ChannelRow>, upstreamModel: string, now: number): RelayChannel | null | undefined {
    if (row.key_hint === null) return relayChannelFrom(row, upstreamModel, null);
    const cached = this.keys.get(row.channel_id);
    if (!cached || cached.revision !== row.revision || now - cached.readAt >= KEY_CACHE_MS) return undefined;
    return cached.key === null ? null : relayChannelFrom(row, upstreamModel, cached.key);
  }

  /** The channel for relay with its key read from the store now (and kept for KEY_CACHE_MS); null when the store lacks it. */
  async read(row: Readonly<ChannelRow>, upstreamModel: string, now: number): Promise<RelayChannel | null> {
    const key = await this.secrets.get(channelSecretName(row.channel_id));
    this.keys.set(row.channel_id, { revision: row.revision, key, readAt: now });
    return key === null ? null : relayChannelFrom(row, upstreamModel, key);
  }

  /** The channel for relay, its key kept or read from the store; undefined when its key is missing. */
  async channelOf(row: Readonly<ChannelRow>, upstreamModel: string, now: number): Promise<RelayChannel | undefined> {
    const kept = this.kept(row, upstreamModel, now);
    const channel = kept === undefined ? await this.read(row, upstreamModel, now) : kept;
    return channel ?? undefined;
  }

  /** The key last read for a channel (whatever its age), to keep out of what is written about it. */
  lastRead(channelId: string): string | null {
    return this.keys.get(channelId)?.key ?? null;
  }

  /** Drops the key kept for a channel (its key changed, or it is gone). */
  forget(channelId: string): void {
    this.keys.delete(channelId);
  }
}

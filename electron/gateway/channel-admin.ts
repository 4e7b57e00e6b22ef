// The relay channels of a data dir without a running gateway: what the CLI's `channel` command manages (also while a server runs on it).
import { openProductDatabase } from './open-stores.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import { ChannelsService } from './services/channels.ts';
import { ChannelsRepo } from './storage/channels-repo.ts';
import { systemClock } from './time.ts';

/** The channels of the data dir's database, opened (and migrated) on the spot; call close() when done. */
export interface ChannelAdmin {
  readonly channels: ChannelsService;
  close(): void;
}

/** Opens the data dir's database for channel management, keys going to `secrets`. */
export function openChannelAdmin(dataDir: string, secrets: SecretStore): ChannelAdmin {
  const db = openProductDatabase(dataDir);
  return { channels: new ChannelsService({ repo: new ChannelsRepo(db), secrets, clock: systemClock }), close: () => db.close() };
}

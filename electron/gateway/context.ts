// Composes storage, providers, services and the scheduler into the one context object that routes and hosts use.
import { EventEmitter } from 'node:events';
import { runtimeInfo, settingsOf, type ContextOptions } from './context-options.ts';
import { wireProviders } from './context-providers.ts';
import { wireScheduler } from './context-scheduler.ts';
import { wireServices } from './context-services.ts';
import type { GatewayContext, GatewayEvents } from './context-types.ts';
import { makeListenersSafe } from './safe-events.ts';
import { FaultCounters } from './server/faults.ts';
import { ChannelsService } from './services/channels.ts';
import { STORAGE_LIMITS, type StorageLimits } from './services/storage-limits.ts';
import { ChannelsRepo } from './storage/channels-repo.ts';
import { GroupCommit } from './storage/group-commit.ts';
import { OffsetClock } from './time.ts';
import { MediaPool } from './workers/media-pool.ts';

// Routes take the GatewayContext type from here (the one import of the composition root they may make).
export type { GatewayContext, GatewayEvents, RuntimeInfo } from './context-types.ts';
export type { ContextOptions } from './context-options.ts';

/** The context of one run: every service wired on `options.db`, the scheduler and batch runner built but not started. */
export function createContext(options: ContextOptions): GatewayContext {
  const { db, dataDir } = options;
  const clock = options.clock instanceof OffsetClock ? options.clock : new OffsetClock(options.clock);
  // A listener that throws (a closed socket, a host's bug) is reported as `error`, never thrown into a request or a timer.
  const events = makeListenersSafe(new EventEmitter<GatewayEvents>());
  const reportError = (error: unknown) => void events.emit('error', error);
  const media = new MediaPool(options.media);
  const writes = new GroupCommit(db, reportError);
  const channels = new ChannelsService({ repo: new ChannelsRepo(db), secrets: options.secrets, clock, writes });
  const seam = wireProviders(options, { clock, media, channels, reportError });
  const storageLimits: StorageLimits = { ...STORAGE_LIMITS, ...options.storageLimits };
  const { services, assetsRepo, refresher } = wireServices({
    db,
    dataDir,
    clock,
    events,
    reportError,
    writes,
    channels,
    providers: seam.providers,
    services: seam.services,
    modelAliases: options.modelAliases,
    storageLimits,
  });
  const { scheduler, batchRunner } = wireScheduler({
    db,
    clock,
    events,
    reportError,
    refreshIntervalMs: options.refreshIntervalMs,
    assetsRepo,
    refresher,
    batches: services.batches,
  });
  return {
    db,
    dataDir,
    clock,
    secrets: options.secrets,
    events,
    ...services,
    media,
    providers: seam.providers,
    channels,
    writes,
    fixtures: seam.fixtures,
    cassettes: seam.cassettes,
    cassetteFolder: seam.cassetteFolder,
    faults: new FaultCounters(),
    storageLimits,
    scheduler,
    batchRunner,
    settings: settingsOf(options),
    runtime: runtimeInfo(options, clock),
  };
}

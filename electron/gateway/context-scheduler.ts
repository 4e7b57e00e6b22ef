// Wires the background work: the asset scan and the batch runner, each woken at once when the gateway's clock is advanced.
import type { EventEmitter } from 'node:events';
import type { GatewayEvents } from './context-types.ts';
import { BatchRunner } from './scheduler/batch-runner.ts';
import { RefreshScheduler } from './scheduler/refresh-scheduler.ts';
import type { AssetRefresher } from './services/asset-refresh.ts';
import type { BatchesService } from './services/batches.ts';
import type { AssetsRepo } from './storage/assets-repo.ts';
import type { Db } from './storage/database.ts';
import { MetaRepo } from './storage/meta-repo.ts';
import type { OffsetClock } from './time.ts';

/** What the background work runs on. */
export interface SchedulerDeps {
  db: Db;
  clock: OffsetClock;
  events: EventEmitter<GatewayEvents>;
  reportError: (error: unknown) => void;
  refreshIntervalMs: number;
  assetsRepo: AssetsRepo;
  refresher: AssetRefresher;
  batches: BatchesService;
}

/** The asset scan (told its findings as `scan.finished`) and the batch runner, both not started yet (the gateway's start does). */
export function wireScheduler(deps: SchedulerDeps): { scheduler: RefreshScheduler; batchRunner: BatchRunner } {
  const { clock, events } = deps;
  const scheduler = new RefreshScheduler({
    intervalMs: deps.refreshIntervalMs,
    assets: deps.assetsRepo,
    meta: new MetaRepo(deps.db),
    refresher: deps.refresher,
    clock,
    onScan: (report) => events.emit('scan.finished', report),
    onError: (error) => events.emit('error', error),
  });
  const batchRunner = new BatchRunner({ batches: deps.batches, onError: deps.reportError });
  // An advance of the clock is seen at once by what waits on real timers: the scan's next run, the batches' next step.
  clock.onAdvance(() => scheduler.clockMoved());
  clock.onAdvance(() => batchRunner.kick());
  return { scheduler, batchRunner };
}

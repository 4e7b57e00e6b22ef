// A Gatehouse for the bench, in its own process: a real gateway (createGateway) on port 0 with an optional relay channel, seeded assets and a fixed-latency reviewer; answers scan requests over IPC.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { createGateway, type GatewayConfig } from '../../electron/gateway/index.ts';
import type { ReviewVerdict, Reviewer } from '../../electron/gateway/providers/types.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { noSecretStore } from '../../electron/gateway/secrets/secret-store.ts';
import { AccountsRepo } from '../../electron/gateway/storage/accounts-repo.ts';
import { AssetsRepo } from '../../electron/gateway/storage/assets-repo.ts';
import { GroupsRepo } from '../../electron/gateway/storage/groups-repo.ts';

/** What the parent asks for, as JSON in argv[2]. */
export interface GatehouseChildOptions {
  journal: boolean;
  /** An OpenAI-kind channel serving every model at this base URL (relay mode). */
  channelBaseUrl?: string;
  /** That channel's key, kept in a secrets file of the temporary data dir (as a real channel's is kept; the upstream ignores it). */
  channelKey?: string;
  /** Assets seeded through the storage layer: how many and with which status. */
  seed?: { assets: number; status: 'Active' | 'Processing' };
  /** A reviewer answering each check after this many ms (for the background scan). */
  reviewerMs?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as GatehouseChildOptions;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
let inFlight = 0;
let peak = 0;

/** A reviewer that takes `ms` per call and approves everything, counting how many calls overlap. */
function fixedLatencyReviewer(ms: number): Reviewer {
  const timed = async <T>(value: T): Promise<T> => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, ms));
    inFlight -= 1;
    return value;
  };
  return {
    submit: () => timed({ upstreamId: `up-${Math.random().toString(36).slice(2)}` }),
    check: (upstreamId) => timed<ReviewVerdict>({ status: 'Active', resolvedUrl: `https://cdn.example/${upstreamId}` }),
  };
}

const config: GatewayConfig = {
  dataDir,
  port: 0,
  secrets: options.channelKey ? openFileStore(dataDir) : noSecretStore,
  journal: options.journal,
  refreshIntervalMs: 3_600_000,
  simReviewMs: 0,
  ...(options.reviewerMs !== undefined && { reviewer: fixedLatencyReviewer(options.reviewerMs) }),
};
const gateway = await createGateway(config);
const { url, firstToken } = await gateway.start();
const db = gateway.context.db;

if (options.channelBaseUrl) {
  await gateway.context.channels.add({
    name: 'bench-upstream',
    kind: 'openai',
    base_url: options.channelBaseUrl,
    models: '*',
    ...(options.channelKey && { key: options.channelKey }),
  });
}

let sampleAssetId = '';
if (options.seed) {
  const { assets: count, status } = options.seed;
  const account = new AccountsRepo(db).findByName('local')!;
  const now = Date.now();
  const group = new GroupsRepo(db).insert({
    group_id: 'grp_bench',
    account_id: account.id,
    name: 'bench',
    description: '',
    group_type: 'AIGC',
    created_at: now,
    updated_at: now,
  });
  const assets = new AssetsRepo(db);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      assets.insert({
        asset_id: `ast_bench${String(i).padStart(7, '0')}`,
        account_id: account.id,
        group_ref: group.id,
        url: `https://cdn.example.com/${i}.png`,
        asset_type: 'Image',
        name: `asset ${i}`,
        status,
        upstream_id: `up-${i}`,
        created_at: now,
        updated_at: now,
      });
    }
  })();
  sampleAssetId = 'ast_bench0000000';
}

// `bench/profile.ts` profiles the load window only (not the start-up): profile-start, then profile-stop answers the
// profile's path: a .cpuprofile, or with `alloc` a .heapprofile of the sampled allocations, the ones collected since included
// (with `promoted`, only those no scavenge collected).
let profiler: Session | undefined;
let allocations = false;
process.on('message', (message: { cmd: string; alloc?: boolean; promoted?: boolean }) => {
  if (message.cmd === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    allocations = message.alloc === true;
    const started = allocations
      ? profiler.post('HeapProfiler.startSampling', {
          samplingInterval: 1024,
          includeObjectsCollectedByMajorGC: true,
          // `promoted`: leave out what a scavenge collected, so only what outlived the young generation is left.
          includeObjectsCollectedByMinorGC: message.promoted !== true,
        })
      : profiler.post('Profiler.enable').then(() => profiler!.post('Profiler.start'));
    void started.then(() => process.send?.({ profiling: true }));
    return;
  }
  if (message.cmd === 'profile-stop' && profiler) {
    const stopped = allocations
      ? profiler.post('HeapProfiler.stopSampling')
      : profiler.post('Profiler.stop').then(({ profile }) => ({ profile }));
    void stopped.then(({ profile }) => {
      const file = path.join(os.tmpdir(), `gatehouse-bench-${process.pid}.${allocations ? 'heapprofile' : 'cpuprofile'}`);
      writeFileSync(file, JSON.stringify(profile));
      process.send?.({ profile: file });
    });
    return;
  }
  if (message.cmd !== 'scan') return;
  peak = 0;
  const started = performance.now();
  void gateway.context.scheduler.runNow().then((report) => {
    process.send?.({ scan: { wallMs: performance.now() - started, checked: report.checked, errors: report.errors, concurrency: peak } });
  });
});

const stop = async () => {
  await gateway.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
process.send?.({ url, token: firstToken, sampleAssetId });

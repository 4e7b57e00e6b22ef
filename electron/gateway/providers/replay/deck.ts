// Opens the cassettes of a run from `record` and `replay`: one store per folder, the recorder (whose key scrub learns the keys relay routing and the service channels hand out), the shelf, and what the selector asks.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { CassetteError, type RecordConfig, type ReplayConfig, type ReplayMiss } from '../../../../shared/cassette.ts';
import { sleep } from '../../protocols/pace.ts';
import type { Clock } from '../../time.ts';
import type { CassetteDeck, ChannelDirectory, ServiceChannelDirectory } from '../types.ts';
import { KeyWatch } from './key-watch.ts';
import type { Playback, ReplayWait } from './playback.ts';
import { StoreRecorder } from './recorder.ts';
import { StoreShelf } from './shelf.ts';
import { CassetteStore } from './store.ts';

export interface CassetteOptions {
  record?: RecordConfig;
  replay?: ReplayConfig;
  /** Test only: replaces the real timers playback waits on. */
  replayWait?: ReplayWait;
  clock: Clock;
  report: (error: unknown) => void;
}

export interface OpenedCassettes {
  deck: CassetteDeck;
  /** The selector's part (under `--replay`). */
  routing?: { shelf: StoreShelf; miss: ReplayMiss; playback: Playback };
  /** The channel directory relay routing reads, watched for keys when recording (as given otherwise). */
  watch(directory: ChannelDirectory): ChannelDirectory;
  /** The service channel directory portrait reviews and 3D tasks read, watched by the same key watch when recording. */
  watchServices(directory: ServiceChannelDirectory): ServiceChannelDirectory;
}

/** Whether two folders are one (through links and a case-insensitive file system too, once the first exists). */
function sameFolder(one: string, other: string): boolean {
  const real = (dir: string) => {
    try {
      return realpathSync.native(dir);
    } catch {
      return path.resolve(dir);
    }
  };
  return real(one) === real(other);
}

/**
 * Opens the folders (made when missing). A replay whose misses relay records them in its own folder when no `record`
 * folder is given. Throws a CassetteError for a folder over its bounds, or (with an ignore list) a damaged cassette.
 */
export function openCassettes(options: CassetteOptions): OpenedCassettes {
  const stores = new Map<string, CassetteStore>();
  const storeOf = (dir: string, replace = false) => {
    const opened = new CassetteStore(dir, { replace });
    const known = stores.get(opened.dir);
    if (known) return known;
    stores.set(opened.dir, opened);
    return opened;
  };
  const replay = options.replay;
  const miss = replay?.miss ?? 'simulate';
  const speed = replay?.speed ?? 1;
  const replayStore = replay && storeOf(replay.dir);
  const recordDir = options.record?.dir ?? (replay && miss === 'relay' ? replay.dir : undefined);
  if (options.record?.replace && replayStore && sameFolder(options.record.dir, replayStore.dir))
    throw new CassetteError(replayStore.dir, '', 'is replayed from, so it cannot be re-recorded over in the same run (--record-replace)');
  const keys = new KeyWatch();
  const recorder =
    recordDir === undefined
      ? undefined
      : new StoreRecorder({
          store: storeOf(recordDir, options.record?.replace === true),
          clock: options.clock,
          simulated: options.record?.simulated ?? false,
          redact: options.record?.redact ?? [],
          keys: () => keys.hidden(),
          report: options.report,
        });
  const shelf = replayStore && new StoreShelf(replayStore, replay.ignore ?? []);
  const playback: Playback | undefined = shelf && {
    speed,
    wait: options.replayWait ?? sleep,
    blob: (blob, owner) => shelf.blob(blob, owner),
  };
  return {
    deck: { ...(recorder && { recorder }), ...(shelf && { shelf }), miss, speed },
    ...(shelf && playback && { routing: { shelf, miss, playback } }),
    watch: (directory) => (recorder ? keys.relay(directory) : directory),
    watchServices: (directory) => (recorder ? keys.services(directory) : directory),
  };
}

// The gateway's record/replay folder as the admin API lists it, and the replay run it records (started and stopped with the gateway).
import type { RecordConfig, ReplayConfig } from '../../../../shared/cassette.ts';
import type { CassetteAdmin, CassetteFolder, CassettePaging } from '../../../../shared/cassette-admin.ts';
import type { Clock } from '../../time.ts';
import { CassetteCatalog, replayRunOf } from './catalog.ts';
import { ReplayRun } from './run-record.ts';

/** The folder of `--replay` (which wins) or `--record`, listed through a catalog; under `--replay`, this run's record. */
export class CassetteFolderAdmin implements CassetteAdmin {
  private readonly catalog: CassetteCatalog | null;
  private readonly mode: CassetteFolder['mode'];
  private readonly report: (error: unknown) => void;
  private run: ReplayRun | null = null;
  constructor(config: { record?: RecordConfig | undefined; replay?: ReplayConfig | undefined }, report: (error: unknown) => void) {
    const dir = config.replay?.dir ?? config.record?.dir;
    this.catalog = dir === undefined ? null : new CassetteCatalog(dir);
    this.mode = config.replay ? 'replay' : config.record ? 'record' : null;
    this.report = report;
  }

  /** Under `--replay`: starts this run's record in the folder (the last run's is replaced). */
  start(clock: Clock): void {
    if (this.mode !== 'replay' || !this.catalog || this.run) return;
    this.run = new ReplayRun(this.catalog.dir, clock, this.report);
    this.run.start();
  }

  /** Ends the run's record, every line written. */
  async stop(): Promise<void> {
    await this.run?.stop();
  }

  get replaying(): boolean {
    return this.mode === 'replay';
  }

  replayed(file: string): void {
    this.run?.note(file);
  }

  async list(query: Record<string, unknown>, paging: CassettePaging): Promise<CassetteFolder> {
    if (!this.catalog)
      return {
        dir: null,
        mode: null,
        run: null,
        files: 0,
        truncated: false,
        page: paging.page,
        page_size: paging.pageSize,
        total: 0,
        items: [],
      };
    const run = replayRunOf(this.catalog.dir, this.run ?? undefined);
    return this.catalog.page(query, paging, { mode: this.mode }, run);
  }
}

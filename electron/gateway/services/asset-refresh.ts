// Refreshes one non-terminal asset from the upstream reviewer and stores the outcome; concurrent refreshes of one asset share a call.
import { TERMINAL_STATUSES } from '../../../shared/portrait.ts';
import { UpstreamError } from '../errors.ts';
import type { CallContext, ProviderSelector, ReviewVerdict } from '../providers/types.ts';
import type { AssetRow, AssetsRepo, RefreshResult } from '../storage/assets-repo.ts';
import type { Clock } from '../time.ts';

/** Emitted after a refresh stored a change of an asset. */
export type AssetChangeListener = (asset: AssetRow) => void;

export class AssetRefresher {
  private readonly inFlight = new Map<number, Promise<AssetRow>>();
  private readonly repo: AssetsRepo;
  private readonly providers: ProviderSelector;
  private readonly clock: Clock;
  private readonly onChange: AssetChangeListener;
  private readonly commit: (write: () => void) => Promise<void>;

  /**
   * `providers` gives the reviewer of each refresh (the background scan's has no call). `commit` stores an outcome and
   * resolves once it is durable: absent, at once; the gateway passes its group commit, so the refreshes that end in
   * one event-loop turn (the scan runs several at a time) share one flush.
   */
  constructor(
    repo: AssetsRepo,
    providers: ProviderSelector,
    clock: Clock,
    onChange: AssetChangeListener = () => {},
    commit: (write: () => void) => Promise<void> = async (write) => write(),
  ) {
    this.repo = repo;
    this.providers = providers;
    this.clock = clock;
    this.onChange = onChange;
    this.commit = commit;
  }

  /**
   * Asks the reviewer about a non-terminal asset and stores what it says. A terminal asset is
   * returned untouched, with no upstream call. An upstream error is stored in `refresh_error`
   * and the status is kept. Never throws for upstream trouble. `call`: the request that asks, absent for the background scan.
   */
  refresh(row: AssetRow, call?: CallContext): Promise<AssetRow> {
    if (TERMINAL_STATUSES.includes(row.status)) return Promise.resolve(row);
    const running = this.inFlight.get(row.id);
    if (running) return running;
    const work = this.run(row, call).finally(() => this.inFlight.delete(row.id));
    this.inFlight.set(row.id, work);
    return work;
  }

  private async run(row: AssetRow, call: CallContext | undefined): Promise<AssetRow> {
    let result: RefreshResult;
    try {
      result = fromVerdict(await this.providers.for(call).reviewer.check(row.upstream_id), this.clock.now());
    } catch (error) {
      const message = error instanceof UpstreamError ? error.message : `unexpected reviewer error: ${String(error)}`;
      result = {
        status: row.status,
        resolved_url: row.resolved_url,
        failure_reason: row.failure_reason,
        refresh_error: message,
        updated_at: this.clock.now(),
      };
    }
    const unchanged =
      result.status === row.status &&
      result.refresh_error === row.refresh_error &&
      result.resolved_url === row.resolved_url &&
      result.failure_reason === row.failure_reason;
    if (unchanged) return row;
    let stored = false;
    await this.commit(() => (stored = this.repo.applyRefresh(row.id, result)));
    const fresh = this.repo.findById(row.id) ?? row;
    if (stored) this.onChange(fresh);
    return fresh;
  }
}

function fromVerdict(verdict: ReviewVerdict, now: number): RefreshResult {
  switch (verdict.status) {
    case 'Processing':
      return { status: 'Processing', resolved_url: null, failure_reason: null, refresh_error: null, updated_at: now };
    case 'Active':
      return { status: 'Active', resolved_url: verdict.resolvedUrl, failure_reason: null, refresh_error: null, updated_at: now };
    case 'Failed':
      return { status: 'Failed', resolved_url: null, failure_reason: verdict.reason, refresh_error: null, updated_at: now };
  }
}

// Refreshes one non-terminal asset from the upstream reviewer and stores the outcome; concurrent refreshes of one asset share a call.
import { TERMINAL_STATUSES } from '../../../shared/portrait.ts';
import { UpstreamError } from '../errors.ts';
import type { CallContext, ProviderSelector, Reviewer, ReviewerSelector, ReviewVerdict } from '../providers/types.ts';
import type { AssetRow, AssetsRepo, RefreshResult } from '../storage/assets-repo.ts';
import { writeAtOnce, type CommittedWrites } from '../storage/group-commit.ts';
import type { Clock } from '../time.ts';
import { refreshBackoffMs } from './refresh-backoff.ts';
import { keptUpstreamText } from './upstream-text.ts';

/** Emitted after a refresh stored a change of an asset. */
export type AssetChangeListener = (asset: AssetRow) => void;

export class AssetRefresher {
  private readonly inFlight = new Map<number, Promise<AssetRow>>();
  private readonly repo: AssetsRepo;
  private readonly providers: ProviderSelector;
  private readonly clock: Clock;
  private readonly onChange: AssetChangeListener;
  private readonly writes: CommittedWrites;
  private readonly reviewers: ReviewerSelector | undefined;
  private readonly random: () => number;

  /**
   * `providers` gives the simulated reviewer of each refresh (the background scan's has no call); `reviewers`, the one of
   * an asset registered with a service channel; `random`, the backoff's jitter. `writes` stores an outcome and resolves
   * once it is durable: absent, at once; the gateway passes its group commit, so the refreshes that end in one
   * event-loop turn (the scan runs several at a time) share one flush.
   */
  constructor(
    repo: AssetsRepo,
    providers: ProviderSelector,
    clock: Clock,
    onChange: AssetChangeListener = () => {},
    options: { reviewers?: ReviewerSelector; random?: () => number; writes?: CommittedWrites } = {},
  ) {
    this.repo = repo;
    this.providers = providers;
    this.clock = clock;
    this.onChange = onChange;
    this.writes = options.writes ?? writeAtOnce;
    this.reviewers = options.reviewers;
    this.random = options.random ?? Math.random;
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
      result = fromVerdict(await (await this.reviewerOf(row, call)).check(row.upstream_id), this.clock.now());
      if (row.refresh_failures > 0) this.repo.noteRefreshStreak(row.id, 0, null);
    } catch (error) {
      const failures = row.refresh_failures + 1;
      const wait = refreshBackoffMs(failures, this.random);
      this.repo.noteRefreshStreak(row.id, failures, wait > 0 ? this.clock.now() + wait : null);
      const message = error instanceof UpstreamError ? error.message : `unexpected reviewer error: ${String(error)}`;
      result = {
        status: row.status,
        resolved_url: row.resolved_url,
        failure_reason: row.failure_reason,
        refresh_error: keptUpstreamText(message),
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
    await this.writes.commit(() => (stored = this.repo.applyRefresh(row.id, result)));
    const fresh = this.repo.findById(row.id) ?? row;
    if (stored) this.onChange(fresh);
    return fresh;
  }

  /** The reviewer the asset was registered with: its service channel's, or the simulator's. */
  private async reviewerOf(row: AssetRow, call: CallContext | undefined): Promise<Reviewer> {
    if (row.reviewer_channel_id === null || row.reviewer_channel_id === undefined) return this.providers.for(call).reviewer;
    if (!this.reviewers) throw new UpstreamError('no service channels are configured in this gateway');
    return this.reviewers.of(row.reviewer_channel_id);
  }
}

function fromVerdict(verdict: ReviewVerdict, now: number): RefreshResult {
  switch (verdict.status) {
    case 'Processing':
      return { status: 'Processing', resolved_url: null, failure_reason: null, refresh_error: null, updated_at: now };
    case 'Active':
      return { status: 'Active', resolved_url: verdict.resolvedUrl, failure_reason: null, refresh_error: null, updated_at: now };
    case 'Failed':
      return {
        status: 'Failed',
        resolved_url: null,
        failure_reason: keptUpstreamText(verdict.reason),
        refresh_error: null,
        updated_at: now,
      };
  }
}

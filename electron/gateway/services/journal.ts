// The request journal's writer: collects recorded calls, writes them in batches (one transaction per batch), and announces each one.
import { JOURNAL_LIMIT, type JournalRecord, type JournalSummary } from '../../../shared/journal.ts';
import { guarded } from '../safe-events.ts';
import { writeAtOnce, type DeferredWrites } from '../storage/group-commit.ts';
import type { JournalRepo } from '../storage/journal-repo.ts';

export interface JournalRecorderOptions {
  repo: JournalRepo;
  /** Called once per entry after it is stored. */
  onAdded: (entry: JournalSummary) => void;
  /** Told of each failure to record (the entry is lost, the call and the process are not). */
  onError: (error: unknown) => void;
  /** How long a record may wait for its batch. */
  flushMs?: number;
  /** The gateway's group commit: a batch is committed with the turn's other bookkeeping (no disk flush of its own). */
  writes?: DeferredWrites;
  limit?: number;
}

/**
 * Journal entries are diagnostics, not acknowledged data: they are written a moment after the call, in
 * batches committed with the other bookkeeping (the group commit: `synchronous=NORMAL`), so recording costs a
 * request no disk flush of its own. A failure to record never fails a call.
 */
export class JournalRecorder {
  private readonly options: JournalRecorderOptions;
  private pending: JournalRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private unauthenticatedCalls = 0;

  constructor(options: JournalRecorderOptions) {
    this.options = options;
  }

  /** Reports a failure to record; never throws. */
  readonly fail = (error: unknown): void => {
    try {
      this.options.onError(error);
    } catch {
      // A failing reporter loses the report, never the process.
    }
  };

  add(record: JournalRecord): void {
    if (this.stopped) return;
    this.pending.push(record);
    if (!this.timer) {
      this.timer = setTimeout(
        guarded(this.fail, () => this.flush()),
        this.options.flushMs ?? 100,
      );
      this.timer.unref();
    }
  }

  /** Counts a call that named none of the gateway's tokens instead of recording it. */
  countUnauthenticated(): void {
    this.unauthenticatedCalls += 1;
  }

  /** API calls naming none of the gateway's tokens since this run started (counted, never recorded). */
  get unauthenticated(): number {
    return this.unauthenticatedCalls;
  }

  /** Writes what is pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const writes = this.options.writes ?? writeAtOnce;
    let added: JournalSummary[] = [];
    try {
      writes.defer(() => {
        added = this.options.repo.insertMany(batch, this.options.limit ?? JOURNAL_LIMIT);
      });
      // Written now, in the group commit's transaction (a failure there is reported by it, and announces nothing).
      writes.flush();
    } catch (error) {
      this.fail(error);
      return;
    }
    const announce = guarded(this.fail, this.options.onAdded);
    for (const entry of added) announce(entry);
  }

  /** Writes what is pending and records nothing more (the database closes next). */
  stop(): void {
    this.flush();
    this.stopped = true;
  }
}

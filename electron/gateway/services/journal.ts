// The request journal's writer: collects recorded calls, writes them in batches (one transaction per batch), and announces each one.
import { JOURNAL_LIMIT, type JournalSummary } from '../../../shared/journal.ts';
import type { JournalRecord, JournalRepo } from '../storage/journal-repo.ts';

export interface JournalRecorderOptions {
  repo: JournalRepo;
  /** Called once per entry after it is stored. */
  onAdded: (entry: JournalSummary) => void;
  onError: (error: unknown) => void;
  /** How long a record may wait for its batch. */
  flushMs?: number;
  limit?: number;
}

/**
 * Journal entries are diagnostics, not acknowledged data: they are written a moment after the call, in
 * batches, so recording costs a request no disk flush of its own. A failure to record never fails a call.
 */
export class JournalRecorder {
  private readonly options: JournalRecorderOptions;
  private pending: JournalRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(options: JournalRecorderOptions) {
    this.options = options;
  }

  add(record: JournalRecord): void {
    if (this.stopped) return;
    this.pending.push(record);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.options.flushMs ?? 100);
      this.timer.unref();
    }
  }

  /** Writes what is pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    let added: JournalSummary[];
    try {
      added = this.options.repo.insertMany(batch, this.options.limit ?? JOURNAL_LIMIT);
    } catch (error) {
      this.options.onError(error);
      return;
    }
    for (const entry of added) this.options.onAdded(entry);
  }

  /** Writes what is pending and records nothing more (the database closes next). */
  stop(): void {
    this.flush();
    this.stopped = true;
  }
}

// The request journal's writer: collects recorded calls, hands them to the journal thread in batches (one transaction per batch there), and announces each one once committed.
import { JOURNAL_LIMIT, type JournalRecord, type JournalSummary } from '../../../shared/journal.ts';
import { guarded } from '../safe-events.ts';
import { JournalRowsMade, rowGivesSummary, summaryOfRow } from '../storage/journal-row.ts';
import type { JournalThread } from '../storage/journal-thread.ts';

export interface JournalRecorderOptions {
  /** Where a batch is written: the journal thread, the only writer of journal.sqlite. */
  store: Pick<JournalThread, 'insertRows'>;
  /** Called once per entry after it is committed. */
  onAdded: (entry: JournalSummary) => void;
  /** Whether `onAdded` has anyone to tell now (no summary is made for nobody); always, when not given. */
  announcing?: () => boolean;
  /** Told of each failure to record (the entry is lost, the call and the process are not). */
  onError: (error: unknown) => void;
  /** How long a record may wait for its batch. */
  flushMs?: number;
  limit?: number;
}

/**
 * Journal entries are diagnostics, not acknowledged data: they are written a moment after the call, in batches posted
 * to the journal thread, which commits each in its own transaction in journal.sqlite, so recording costs the event
 * loop neither an insert nor a disk flush. A failure to record never fails a call.
 */
export class JournalRecorder {
  private readonly options: JournalRecorderOptions;
  /** The pending records, made rows as they come (see JournalRowsMade). */
  private readonly pending = new JournalRowsMade();
  /** The pending records whose row does not give their summary (see `rowGivesSummary`; none the capture makes), by their place. */
  private keptForSummary: Map<number, JournalRecord> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private unauthenticatedCalls = 0;
  /** Batches posted and not yet answered. */
  private readonly posted = new Set<Promise<void>>();

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
    const place = this.pending.size;
    this.pending.add(record);
    if (!rowGivesSummary(record)) (this.keptForSummary ??= new Map()).set(place, record);
    if (!this.timer) {
      this.timer = setTimeout(
        guarded(this.fail, () => void this.flush()),
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

  /**
   * Posts what is pending now (at once: a read posted to the thread after this call sees it); resolves once that batch
   * is committed and announced, or its failure reported. Never rejects.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return Promise.resolve();
    const { batch, moved } = this.pending.take();
    const kept = this.keptForSummary;
    this.keptForSummary = undefined;
    let inserted: Promise<number[]>;
    try {
      inserted = this.options.store.insertRows(batch, moved, this.options.limit ?? JOURNAL_LIMIT);
    } catch (error) {
      inserted = Promise.reject(error);
    }
    const done = inserted.then(
      (ids) => {
        if (this.options.announcing?.() === false) return;
        // The summary is made inside the guard too: nothing of an announcement can reject the flush.
        const announce = guarded(this.fail, (id: number, index: number) => {
          const record = kept?.get(index);
          this.options.onAdded(record === undefined ? summaryOfRow(batch, index, id) : summaryOf(record, id));
        });
        ids.forEach((id, index) => announce(id, index));
      },
      // Not written (a failure announces nothing).
      this.fail,
    );
    this.posted.add(done);
    void done.finally(() => this.posted.delete(done));
    return done;
  }

  /** Posts what is pending, records nothing more, and resolves once every batch posted is committed (or failed). */
  async stop(): Promise<void> {
    void this.flush();
    this.stopped = true;
    await Promise.all(this.posted);
  }
}

/** A committed record as listed: its summary fields with the id it was given. */
function summaryOf(record: JournalRecord, id: number): JournalSummary {
  const { detail: _detail, relay: _relay, ...summary } = record;
  return { id, ...summary };
}

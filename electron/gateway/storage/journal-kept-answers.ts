// On the journal thread, a kept render's answer: stored by reference once its stream's template proves it (the template's packed parts once, in journal_kept_answers; in the entry only which parts and the call's identity), else packed from its bytes made again; read back as the very text the call wrote.
import type { Db } from './database.ts';
import { KeptPacks } from './journal-kept-packs.ts';
import { answerBytesOf, KeptLayouts, type KeptRef, type SlotLayout } from './journal-kept-slots.ts';
import { packJournalText, unpackJournalText } from './journal-pack.ts';
import { decodedJournalAnswer, JOURNAL_KEPT_IDENTITY, JOURNAL_KEPT_REF, JOURNAL_RESPONSE_TEXT, JOURNAL_ROW_WIDTH } from './journal-row.ts';
import type { JournalBatch, JournalRows } from './journal-row.ts';

/** Batches between two prunes of the parts no entry names any more (their entries pushed out or cleared); a repository opened prunes at once. */
export const KEPT_PRUNE_BATCHES = 16;
const PRUNE_SQL =
  'DELETE FROM journal_kept_answers WHERE id NOT IN (SELECT kept_answer FROM journal WHERE kept_answer IS NOT NULL) RETURNING id';

/** What became of a kept render's answer: stored by reference (`parts`: the row of journal_kept_answers), or its packed text (null: its text, set in the row, stored as it is). */
export type KeptAnswer = { parts: number } | { packed: string | null };

/**
 * The kept renders' answers of the journal's store (one per JournalRepo, on the thread that is the store's only
 * connection): the layouts the event loop's slots name, the streams' templates, and the templates' parts stored, which
 * it holds in memory too (reads and the body search put an answer together from them).
 */
export class KeptAnswers {
  private readonly db: Db;
  private readonly packs = new KeptPacks();
  private readonly layouts = new KeptLayouts();
  /** Every row of journal_kept_answers: a template's parts by the row's id. */
  private readonly stored = new Map<number, readonly string[]>();
  /** The row each template's parts were stored in (by the parts array, the template's own). */
  private readonly rowOf = new WeakMap<readonly string[], number>();
  /** Rows stored by the transaction under way: forgotten if it is rolled back. */
  private added: number[] = [];
  /** Rows the transaction under way deleted, with their parts: held again if it is rolled back (its entries are back too). */
  private pruned: [number, readonly string[]][] = [];
  private batches = 0;

  constructor(db: Db) {
    this.db = db;
    // Rows an earlier thread stored and no entry names now (its templates were its own) go first; if that fails, at the
    // first prune of a batch.
    try {
      db.prepare(PRUNE_SQL).all();
    } catch {
      // Pruned later.
    }
    for (const row of db.prepare('SELECT id, parts FROM journal_kept_answers').all() as { id: number; parts: string }[])
      this.stored.set(row.id, JSON.parse(row.parts) as string[]);
    // The body search reads an answer stored by reference through this.
    db.function('journal_kept_text', (parts: unknown, identity: unknown) =>
      typeof parts === 'number' && typeof identity === 'string' ? this.textOf(parts, identity) : null,
    );
  }

  /** The text of an answer stored by reference; null when its parts are not stored (never, for an entry that names them). */
  textOf(parts: number, identity: string): string | null {
    const stored = this.stored.get(parts);
    return stored === undefined ? null : unpackJournalText(stored.join(identity));
  }

  /**
   * Before a batch's transaction: each kept render's ref made the layout it names (definitions read in order), so the
   * slots it defines are this thread's whatever becomes of the insert (the event loop counts on them for the batches
   * after it). A slot never defined (which the event loop never refers to, but after a batch that went missing, see
   * `number`, the batch's number as KeptSlots `nextBatch` gave it) leaves the answer without its text.
   */
  resolve(batch: JournalBatch, number?: number): void {
    if (number !== undefined) this.layouts.batch(number);
    for (const rows of batch)
      for (let at = JOURNAL_KEPT_REF; at < rows.length; at += JOURNAL_ROW_WIDTH) {
        const ref = rows[at] as KeptRef | null;
        if (ref !== null) rows[at] = (this.layouts.layoutOf(ref) ?? null) as unknown as KeptRef | null;
      }
  }

  /**
   * The answer of the row at `at` when it is a kept render's (undefined otherwise): by reference when its stream's
   * template proves it (from the layout alone once the template is proved for it, else against the answer's bytes made
   * again from the layout), else those bytes decoded (the text set in the row) and packed, the template told.
   */
  answerOf(rows: JournalRows, at: number): KeptAnswer | undefined {
    const layout = rows[at + JOURNAL_KEPT_REF] as unknown as SlotLayout | null;
    if (layout === null) return undefined;
    const identity = rows[at + JOURNAL_KEPT_IDENTITY] as string;
    const fast = this.packs.partsFrom(layout.id, identity, layout);
    if (fast !== undefined) return { parts: this.rowFor(fast) };
    const bytes = answerBytesOf(layout, identity);
    if (bytes === undefined) return { packed: null };
    const parts = this.packs.partsOf(layout.id, identity, bytes, layout);
    if (parts !== undefined) return { parts: this.rowFor(parts) };
    const text = decodedJournalAnswer(bytes);
    rows[at + JOURNAL_RESPONSE_TEXT] = text;
    const packed = packJournalText(text);
    this.packs.learn(layout.id, identity, bytes, text, packed);
    return { packed };
  }

  /** The row of journal_kept_answers holding `parts`, stored now if it is not yet. */
  private rowFor(parts: readonly string[]): number {
    let row = this.rowOf.get(parts);
    if (row !== undefined) return row;
    row = Number(this.db.prepare('INSERT INTO journal_kept_answers (parts) VALUES (?)').run(JSON.stringify(parts)).lastInsertRowid);
    this.rowOf.set(parts, row);
    this.stored.set(row, parts);
    this.added.push(row);
    return row;
  }

  /**
   * Inside a batch's transaction, after its entries went in and the oldest out: every KEPT_PRUNE_BATCHES batches, and
   * when `now`, the parts no entry names any more are deleted (and forgotten).
   */
  prune(now = false): void {
    this.batches += 1;
    // With nothing stored (most journals: no kept stream answered often enough), nothing to look for.
    if (this.stored.size === 0 || (!now && this.batches % KEPT_PRUNE_BATCHES !== 0)) return;
    const gone = this.db.prepare(PRUNE_SQL).all() as { id: number }[];
    for (const { id } of gone) {
      const parts = this.stored.get(id);
      if (parts !== undefined) this.pruned.push([id, parts]);
      this.forget(id);
    }
  }

  /** The transaction under way committed: what it stored stays. */
  committed(): void {
    this.added = [];
    this.pruned = [];
  }

  /** The transaction under way was rolled back: what it stored is forgotten. */
  rolledBack(): void {
    // Back first, then forgotten: a row this transaction both stored and pruned is on disk no more.
    for (const [row, parts] of this.pruned) {
      this.stored.set(row, parts);
      if (!this.rowOf.has(parts)) this.rowOf.set(parts, row);
    }
    for (const row of this.added) this.forget(row);
    this.added = [];
    this.pruned = [];
  }

  private forget(row: number): void {
    const parts = this.stored.get(row);
    if (parts !== undefined && this.rowOf.get(parts) === row) this.rowOf.delete(parts);
    this.stored.delete(row);
  }
}

// Repository of batches (the Batch API object as JSON, with its status and progress) and the results of their lines; every API query is scoped by account.
import { cursorRows, type CursorAsk, type CursorRows } from './cursor-rows.ts';
import type { Db } from './database.ts';

/** A batch: the API object as JSON, its status (also inside the JSON) and the first of its lines without a result. */
export interface BatchRow {
  id: number;
  batch_id: string;
  account_id: number;
  /** The token that created it: its lines are billed to it. */
  token_id: string;
  status: string;
  batch_json: string;
  next_line: number;
  created_at: number;
}

/** The result of one line: its output or error line, as JSON. */
export interface BatchResultRow {
  line: number;
  ok: number;
  result_json: string;
}

/** Statuses of batches still being worked on. */
export const ACTIVE_BATCH_STATUSES = ['validating', 'in_progress', 'finalizing', 'cancelling'] as const;

/** The statuses of a batch still being worked on, as the placeholders of a statement. */
const ACTIVE_PLACES = ACTIVE_BATCH_STATUSES.map(() => '?').join(', ');
/** Whether any batch is still being worked on. */
const ANY_ACTIVE = `SELECT 1 FROM batches WHERE status IN (${ACTIVE_PLACES}) LIMIT 1`;
/** The batches still being worked on, in turns per account (see `active`). */
const ACTIVE_IN_TURNS = `SELECT * FROM (
   SELECT *, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY id) AS turn FROM batches
   WHERE status IN (${ACTIVE_PLACES})
 ) ORDER BY turn, id LIMIT ?`;

export class BatchesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(row: Omit<BatchRow, 'id' | 'next_line'>): void {
    this.db
      .prepare(
        `INSERT INTO batches (batch_id, account_id, token_id, status, batch_json, created_at)
         VALUES (@batch_id, @account_id, @token_id, @status, @batch_json, @created_at)`,
      )
      .run(row);
  }

  find(accountId: number, batchId: string): BatchRow | undefined {
    return this.db.prepare('SELECT * FROM batches WHERE account_id = ? AND batch_id = ?').get(accountId, batchId) as BatchRow | undefined;
  }

  byId(batchId: string): BatchRow | undefined {
    return this.db.prepare('SELECT * FROM batches WHERE batch_id = ?').get(batchId) as BatchRow | undefined;
  }

  list(accountId: number, ask: CursorAsk): CursorRows<BatchRow> {
    return cursorRows(this.db, { table: 'batches', idColumn: 'batch_id', accountId }, ask);
  }

  /**
   * At most `limit` batches still being worked on, taken in turns: every account's oldest, then every account's second oldest,
   * and so on (oldest first within a turn), so one account's many batches never push another account's out.
   */
  active(limit: number): BatchRow[] {
    // The batch runner asks every 100 ms, and almost always there is none: a look in the status index answers that in a few
    // µs, where the query below (two sorts in temporary trees) takes 50 to 150 µs of the event loop even on an empty table.
    const any = this.db.prepare(ANY_ACTIVE).get(...ACTIVE_BATCH_STATUSES);
    if (any === undefined) return [];
    return this.db.prepare(ACTIVE_IN_TURNS).all(...ACTIVE_BATCH_STATUSES, limit) as BatchRow[];
  }

  /** Writes a batch's object and status. */
  update(batchId: string, status: string, batchJson: string): void {
    this.db.prepare('UPDATE batches SET status = ?, batch_json = ? WHERE batch_id = ?').run(status, batchJson, batchId);
  }

  count(accountId: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM batches WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /** The account's oldest batch that is no longer worked on, if any. */
  oldestFinished(accountId: number): string | undefined {
    const row = this.db
      .prepare(
        `SELECT batch_id FROM batches WHERE account_id = ? AND status NOT IN (${ACTIVE_BATCH_STATUSES.map(() => '?').join(', ')}) ORDER BY id LIMIT 1`,
      )
      .get(accountId, ...ACTIVE_BATCH_STATUSES) as { batch_id: string } | undefined;
    return row?.batch_id;
  }

  /** Finished batches (of every account) created before `before`, at most `limit`. */
  finishedBefore(before: number, limit: number): string[] {
    const rows = this.db
      .prepare(
        `SELECT batch_id FROM batches WHERE created_at < ? AND status NOT IN (${ACTIVE_BATCH_STATUSES.map(() => '?').join(', ')}) ORDER BY id LIMIT ?`,
      )
      .all(before, ...ACTIVE_BATCH_STATUSES, limit) as { batch_id: string }[];
    return rows.map((row) => row.batch_id);
  }

  /** Deletes a batch and its line results. */
  delete(batchId: string): void {
    this.db.prepare('DELETE FROM batch_results WHERE batch_id = ?').run(batchId);
    this.db.prepare('DELETE FROM batches WHERE batch_id = ?').run(batchId);
  }

  /** Records the result of one line and moves `next_line` to the first line still without one, in one transaction. */
  addResult(batchId: string, result: BatchResultRow): void {
    this.db
      .transaction(() => {
        this.db
          .prepare('INSERT OR REPLACE INTO batch_results (batch_id, line, ok, result_json) VALUES (?, ?, ?, ?)')
          .run(batchId, result.line, result.ok, result.result_json);
        const row = this.db.prepare('SELECT next_line FROM batches WHERE batch_id = ?').get(batchId) as { next_line: number } | undefined;
        if (!row) return;
        const has = this.db.prepare('SELECT 1 FROM batch_results WHERE batch_id = ? AND line = ?');
        let next = row.next_line;
        while (has.get(batchId, next)) next++;
        this.db.prepare('UPDATE batches SET next_line = ? WHERE batch_id = ?').run(next, batchId);
      })
      .immediate();
  }

  /** The lines at or past `from` that have a result (answered while earlier lines were still running). */
  resultLinesFrom(batchId: string, from: number): Set<number> {
    const rows = this.db.prepare('SELECT line FROM batch_results WHERE batch_id = ? AND line >= ?').all(batchId, from) as {
      line: number;
    }[];
    return new Set(rows.map((row) => row.line));
  }

  /** The batch's request counts so far: `total` lines, of which the answered ones completed or failed. */
  counts(batchId: string, total: number): { total: number; completed: number; failed: number } {
    const row = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(ok), 0) AS ok FROM batch_results WHERE batch_id = ?').get(batchId) as {
      n: number;
      ok: number;
    };
    return { total, completed: row.ok, failed: row.n - row.ok };
  }

  /** The batch's line results in line order. */
  results(batchId: string): BatchResultRow[] {
    return this.db
      .prepare('SELECT line, ok, result_json FROM batch_results WHERE batch_id = ? ORDER BY line')
      .all(batchId) as BatchResultRow[];
  }

  deleteResults(batchId: string): void {
    this.db.prepare('DELETE FROM batch_results WHERE batch_id = ?').run(batchId);
  }
}

// Repository of the request journal: batched inserts, filtered newest-first pages, one entry with its details, pruning and clearing.
import type { JournalDetail, JournalEntry, JournalQuery, JournalRecord, JournalRelay, JournalSummary } from '../../../shared/journal.ts';
import type { Db } from './database.ts';

interface Row {
  id: number;
  at: number;
  method: string;
  path: string;
  protocol: JournalSummary['protocol'];
  model: string | null;
  account: string | null;
  status: number;
  duration_ms: number;
  stream: number;
  error: string | null;
  detail_json: string;
  relay_json: string | null;
}

const SUMMARY_COLUMNS = 'id, at, method, path, protocol, model, account, status, duration_ms, stream, error';

const summaryOf = (row: Omit<Row, 'detail_json' | 'relay_json'>): JournalSummary => ({
  id: row.id,
  at: row.at,
  method: row.method,
  path: row.path,
  protocol: row.protocol,
  model: row.model,
  account: row.account,
  status: row.status,
  durationMs: row.duration_ms,
  stream: row.stream === 1,
  error: row.error,
});

export class JournalRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Inserts the records in one transaction, keeps only the newest `limit` entries, and returns the summaries with their ids. */
  insertMany(records: readonly JournalRecord[], limit: number): JournalSummary[] {
    const insert = this.db.prepare(
      `INSERT INTO journal (at, method, path, protocol, model, account, status, duration_ms, stream, error, detail_json, relay_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      const added = records.map((record) => {
        const { detail, relay, ...summary } = record;
        const { lastInsertRowid } = insert.run(
          summary.at,
          summary.method,
          summary.path,
          summary.protocol,
          summary.model,
          summary.account,
          summary.status,
          summary.durationMs,
          summary.stream ? 1 : 0,
          summary.error,
          JSON.stringify(detail),
          relay ? JSON.stringify(relay) : null,
        );
        return { id: Number(lastInsertRowid), ...summary };
      });
      this.db.prepare('DELETE FROM journal WHERE id <= (SELECT id FROM journal ORDER BY id DESC LIMIT 1 OFFSET ?)').run(limit);
      return added;
    })();
  }

  /** A page of summaries, newest first. */
  list(filter: Omit<JournalQuery, 'p' | 'page_size'>, page: number, pageSize: number): { total: number; items: JournalSummary[] } {
    const where: string[] = [];
    const args: unknown[] = [];
    // An error is what the caller got as one: an HTTP error status, or a 200 that carries one (the portrait envelope's success:false).
    if (filter.outcome === 'ok') where.push('status < 400 AND error IS NULL');
    if (filter.outcome === 'error') where.push('(status >= 400 OR error IS NOT NULL)');
    const add = (condition: string, value: unknown) => {
      where.push(condition);
      args.push(value);
    };
    if (filter.protocol) add('protocol = ?', filter.protocol);
    if (filter.model) add('model = ?', filter.model);
    if (filter.account) add('account = ?', filter.account);
    if (filter.path) add('instr(lower(path), lower(?)) > 0', filter.path);
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM journal ${clause}`).get(...args) as { total: number };
    const rows = this.db
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM journal ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...args, pageSize, (page - 1) * pageSize) as Omit<Row, 'detail_json' | 'relay_json'>[];
    return { total, items: rows.map(summaryOf) };
  }

  get(id: number): JournalEntry | undefined {
    const row = this.db.prepare('SELECT * FROM journal WHERE id = ?').get(id) as Row | undefined;
    if (!row) return undefined;
    const detail = JSON.parse(row.detail_json) as Partial<JournalDetail>;
    return {
      ...summaryOf(row),
      ...(detail as JournalDetail),
      token: detail.token ?? null,
      ...(row.relay_json !== null && { relay: JSON.parse(row.relay_json) as JournalRelay }),
    };
  }

  clear(): number {
    return this.db.prepare('DELETE FROM journal').run().changes;
  }
}

// Repository of the request journal: batched inserts (of rows, see journal-row.ts), filtered newest-first pages, one entry with its details, pruning and clearing.
import {
  JOURNAL_SEARCH_SCAN,
  type JournalDetail,
  type JournalEntry,
  type JournalQuery,
  type JournalRelay,
  type JournalSummary,
} from '../../../shared/journal.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import {
  decodedJournalAnswer,
  detailJsonOf,
  JOURNAL_COLUMN_VALUES,
  JOURNAL_KEPT_IDENTITY,
  JOURNAL_RELAY_PLACE,
  JOURNAL_RESPONSE_TEXT,
  JOURNAL_ROW_COLUMNS,
  JOURNAL_ROW_WIDTH,
  type JournalBatch,
  type JournalRows,
} from './journal-row.ts';
import { KeptAnswers } from './journal-kept-answers.ts';
import { packJournalText, unpackJournalText } from './journal-pack.ts';

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
  /** Null in entries recorded before the column existed (their detail may name it). */
  token: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  amount_micros: number | null;
  first_output_ms: number | null;
  detail_json: string;
  relay_json: string | null;
  /** The bodies' texts; null in entries recorded before migration 21 (their detail holds them) and for bodies kept without text. */
  request_text: string | null;
  response_text: string | null;
  /** The answer's text packed (journal-pack.ts), `response_text` then null; null in entries recorded before step 2 and whenever packing saved too little. */
  response_packed: string | null;
  /** A kept stream's answer by reference (journal-kept-answers.ts): its parts' row and the call's identity; null in other entries. */
  kept_answer: number | null;
  kept_identity: string | null;
  /** Null in entries recorded before migration 23 (their detail may name the fixture). */
  test_id: string | null;
  request_id: string | null;
  source: JournalSummary['source'];
  fixture: string | null;
  /** Null in entries recorded before migration 26 and in those no cassette answered. */
  cassette: string | null;
}

/** The columns a row fills, in the order of its values: those of a row as posted, then the packed answer or the kept answer's reference made here. */
const ROW_COLUMNS = [...JOURNAL_ROW_COLUMNS.split(', '), 'response_packed', 'kept_answer', 'kept_identity'];
/** The place of `relay_json` among the columns (its bit in a set of null columns), then of `response_packed` and the kept answer's two, the last ones. */
const RELAY_COLUMN = ROW_COLUMNS.indexOf('relay_json');
const PACKED_COLUMN = RELAY_COLUMN + 1;
const KEPT_COLUMNS = (1 << (PACKED_COLUMN + 1)) | (1 << (PACKED_COLUMN + 2));

/**
 * Most INSERT statements kept, one per set of columns rows leave null: binding a null costs better-sqlite3 as much as a
 * text (its type is tried against every other first), so a row binds only its values and leaves the rest to their
 * default, null. A row whose set is not among them binds every column, nulls included.
 */
export const JOURNAL_INSERTS_KEPT = 64;

/** The INSERT of the columns a bit of `nulls` does not name (bit i: the i-th of ROW_COLUMNS). */
function insertSql(nulls: number): string {
  const named = ROW_COLUMNS.filter((_, index) => (nulls & (1 << index)) === 0);
  return `INSERT INTO journal (${named.join(', ')}) VALUES (${named.map(() => '?').join(', ')})`;
}

const SUMMARY_COLUMNS =
  "id, at, method, path, protocol, model, account, status, duration_ms, stream, error, COALESCE(token, json_extract(detail_json, '$.token')) AS token, input_tokens, output_tokens, amount_micros, first_output_ms, test_id, request_id, source, COALESCE(fixture, json_extract(detail_json, '$.fixture')) AS fixture, cassette";

/** A body's text: its own column, or, in an entry recorded before migration 21, inside the detail. */
const TEXT_OF = {
  request: "COALESCE(request_text, json_extract(detail_json, '$.request.text'))",
  response:
    "COALESCE(response_text, journal_unpacked(response_packed), journal_kept_text(kept_answer, kept_identity), json_extract(detail_json, '$.response.text'))",
};

type SummaryRow = Omit<
  Row,
  'detail_json' | 'relay_json' | 'request_text' | 'response_text' | 'response_packed' | 'kept_answer' | 'kept_identity'
>;

const summaryOf = (row: SummaryRow): JournalSummary => ({
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
  token: row.token,
  usage:
    row.input_tokens === null
      ? null
      : { inputTokens: row.input_tokens, outputTokens: row.output_tokens ?? 0, cost: (row.amount_micros ?? 0) / 1_000_000 },
  firstOutputMs: row.first_output_ms,
  test_id: row.test_id,
  request_id: row.request_id,
  source: row.source,
  fixture: row.fixture,
  cassette: row.cassette,
});

export class JournalRepo {
  private readonly db: Db;
  /** The INSERT of each set of null columns met, by its bits (see `insertSql`); at most JOURNAL_INSERTS_KEPT. */
  private readonly inserts = new Map<number, Statement>();
  /** Kept streams' answers, by reference to their template's parts when it proves them (see journal-kept-answers.ts). */
  private readonly kept: KeptAnswers;
  constructor(db: Db) {
    this.db = db;
    this.kept = new KeptAnswers(db);
    // The body search reads a packed answer's text through this.
    db.function('journal_unpacked', { deterministic: true }, (packed: unknown) =>
      typeof packed === 'string' ? unpackJournalText(packed) : null,
    );
  }

  /**
   * Inserts the rows of a batch (in its parts, see journal-row.ts) in one transaction, keeps only the newest `limit` entries, and returns
   * the new entries' ids in order.
   */
  insertMany(batch: JournalBatch, limit: number, number?: number): number[] {
    this.kept.resolve(batch, number);
    return this.keptAtomically(() => {
      const ids: number[] = [];
      for (const rows of batch) for (let at = 0; at < rows.length; at += JOURNAL_ROW_WIDTH) ids.push(this.insertRow(rows, at));
      // Ids are given in order and never reused: the newest `limit` entries are among the last `limit` ids (fewer when a
      // test id's entries were reset), so the journal never holds more than `limit`.
      if (ids.length > 0) this.db.prepare('DELETE FROM journal WHERE id <= ?').run(ids[ids.length - 1]! - limit);
      this.kept.prune();
      return ids;
    });
  }

  /** `write` in one transaction, the kept answers told whether it committed (what it stored or pruned is kept or undone). */
  private keptAtomically<T>(write: () => T): T {
    try {
      const result = this.db.transaction(write).immediate();
      this.kept.committed();
      return result;
    } catch (error) {
      this.kept.rolledBack();
      throw error;
    }
  }

  /**
   * Inserts the row at `at` of `rows`, binding only the values it has, its answer's text packed when that pays
   * (journal-pack.ts: a stream's events repeat most of each other; fewer bytes are fewer pages to write); answers its id.
   */
  private insertRow(rows: JournalRows, at: number): number {
    const relay = rows[at + JOURNAL_RELAY_PLACE] as string | null;
    const kept = this.kept.answerOf(rows, at);
    const keptParts = kept !== undefined && 'parts' in kept ? kept.parts : null;
    const packed = kept === undefined ? this.packedAnswer(rows, at) : 'packed' in kept ? kept.packed : null;
    // Stored packed or by reference, the answer's own column stays null (the batch is this thread's own: it is changed in place).
    if (packed !== null || keptParts !== null) rows[at + JOURNAL_RESPONSE_TEXT] = null;
    const values: (string | number)[] = [];
    let nulls = 0;
    for (let index = 0; index < JOURNAL_COLUMN_VALUES; index++) {
      const value = rows[at + index] as string | number | null;
      if (value === null) nulls |= 1 << index;
      else values.push(value);
    }
    const detailJson = detailJsonOf(rows, at);
    values.push(detailJson);
    if (relay === null) nulls |= 1 << RELAY_COLUMN;
    else values.push(relay);
    if (packed === null) nulls |= 1 << PACKED_COLUMN;
    else values.push(packed);
    if (keptParts === null) nulls |= KEPT_COLUMNS;
    else values.push(keptParts, rows[at + JOURNAL_KEPT_IDENTITY] as string);
    let insert = this.inserts.get(nulls);
    if (!insert && this.inserts.size < JOURNAL_INSERTS_KEPT) {
      insert = this.db.prepare(insertSql(nulls));
      this.inserts.set(nulls, insert);
    }
    // A set past the kept statements: every column bound, nulls included.
    const { lastInsertRowid } = insert
      ? insert.run(...values)
      : this.db
          .prepare(insertSql(0))
          .run(
            rows.slice(at, at + JOURNAL_COLUMN_VALUES),
            detailJson,
            relay,
            packed,
            keptParts,
            keptParts === null ? null : rows[at + JOURNAL_KEPT_IDENTITY],
          );
    return Number(lastInsertRowid);
  }

  /** The packed text of the answer of the row at `at` (null when it is stored as it is): its text (UTF-8 bytes decoded in place, see `decodedJournalAnswer`) packed. */
  private packedAnswer(rows: JournalRows, at: number): string | null {
    const answer = rows[at + JOURNAL_RESPONSE_TEXT];
    if (!(answer instanceof Uint8Array)) return typeof answer === 'string' ? packJournalText(answer) : null;
    const text = decodedJournalAnswer(answer);
    rows[at + JOURNAL_RESPONSE_TEXT] = text;
    return packJournalText(text);
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
    if (filter.from !== undefined) add('at >= ?', filter.from);
    if (filter.to !== undefined) add('at <= ?', filter.to);
    if (filter.test_id !== undefined) add('test_id = ?', filter.test_id);
    if (filter.request_id !== undefined) add('request_id = ?', filter.request_id);
    if (filter.q) {
      // Bounded: only the newest JOURNAL_SEARCH_SCAN calls the other filters match have their bodies read.
      const scanned = `id IN (SELECT id FROM journal ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ${JOURNAL_SEARCH_SCAN})`;
      where.splice(0, where.length, scanned);
      args.push(filter.q, filter.q);
      where.push(`(instr(lower(${TEXT_OF.request}), lower(?)) > 0 OR instr(lower(${TEXT_OF.response}), lower(?)) > 0)`);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const skipped = (page - 1) * pageSize;
    if (filter.q) {
      // The bodies are read (and a packed one unpacked) once: the matching ids give both the total and the page.
      const ids = (this.db.prepare(`SELECT id FROM journal ${clause} ORDER BY id DESC`).all(...args) as { id: number }[]).map(
        (row) => row.id,
      );
      const rows = this.db
        .prepare(`SELECT ${SUMMARY_COLUMNS} FROM journal WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id DESC`)
        .all(JSON.stringify(ids.slice(skipped, skipped + pageSize))) as SummaryRow[];
      return { total: ids.length, items: rows.map(summaryOf) };
    }
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM journal ${clause}`).get(...args) as { total: number };
    const rows = this.db
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM journal ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...args, pageSize, skipped) as SummaryRow[];
    return { total, items: rows.map(summaryOf) };
  }

  get(id: number): JournalEntry | undefined {
    const row = this.db.prepare('SELECT * FROM journal WHERE id = ?').get(id) as Row | undefined;
    if (!row) return undefined;
    const detail = JSON.parse(row.detail_json) as Partial<JournalDetail> & { token?: string | null; fixture?: string };
    const { token: detailToken, fixture: detailFixture, ...rest } = detail;
    const stored = rest as JournalDetail;
    return {
      ...summaryOf({ ...row, fixture: row.fixture ?? detailFixture ?? null }),
      ...stored,
      request: { ...stored.request, text: row.request_text ?? stored.request.text },
      response: {
        ...stored.response,
        text: row.response_text ?? this.storedAnswer(row) ?? stored.response.text,
      },
      token: row.token ?? detailToken ?? null,
      ...(row.relay_json !== null && { relay: JSON.parse(row.relay_json) as JournalRelay }),
    };
  }

  /** An answer stored packed or by reference, as its text; null when it is stored neither way. */
  private storedAnswer(row: Row): string | null {
    if (row.response_packed !== null) return unpackJournalText(row.response_packed);
    return row.kept_answer === null || row.kept_identity === null ? null : this.kept.textOf(row.kept_answer, row.kept_identity);
  }

  /** Removes every entry, or those of one test id (and the kept answers' parts no entry names now); answers how many went. */
  clear(testId?: string): number {
    return this.keptAtomically(() => {
      const { changes } =
        testId === undefined
          ? this.db.prepare('DELETE FROM journal').run()
          : this.db.prepare('DELETE FROM journal WHERE test_id = ?').run(testId);
      this.kept.prune(true);
      return changes;
    });
  }
}

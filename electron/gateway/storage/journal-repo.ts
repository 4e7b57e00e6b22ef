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
  JOURNAL_KEPT_REF,
  JOURNAL_KEPT_IDENTITY,
  JOURNAL_RELAY_PLACE,
  JOURNAL_RESPONSE_TEXT,
  JOURNAL_ROW_COLUMNS,
  JOURNAL_ROW_WIDTH,
  type JournalBatch,
  type JournalRows,
} from './journal-row.ts';
import { KeptPacks } from './journal-kept-packs.ts';
import { answerBytesOf, KeptLayouts, type KeptRef, type SlotLayout } from './journal-kept-slots.ts';
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
  /** Null in entries recorded before migration 23 (their detail may name the fixture). */
  test_id: string | null;
  request_id: string | null;
  source: JournalSummary['source'];
  fixture: string | null;
  /** Null in entries recorded before migration 26 and in those no cassette answered. */
  cassette: string | null;
}

/** The columns a row fills, in the order of its values: those of a row as posted, then the packed answer made here. */
const ROW_COLUMNS = [...JOURNAL_ROW_COLUMNS.split(', '), 'response_packed'];
/** The place of `relay_json` among the columns (its bit in a set of null columns), then of `response_packed`, the last one. */
const RELAY_COLUMN = ROW_COLUMNS.indexOf('relay_json');
const PACKED_COLUMN = RELAY_COLUMN + 1;

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
  response: "COALESCE(response_text, journal_unpacked(response_packed), json_extract(detail_json, '$.response.text'))",
};

type SummaryRow = Omit<Row, 'detail_json' | 'relay_json' | 'request_text' | 'response_text' | 'response_packed'>;

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
  /** Kept streams' packed answers, made from a template instead of packed line by line (see journal-kept-packs.ts). */
  private readonly keptPacks = new KeptPacks();
  /** The kept renders' layouts, by the slots the event loop gives them (see journal-kept-slots.ts). */
  private readonly layouts = new KeptLayouts();
  constructor(db: Db) {
    this.db = db;
    // The body search reads a packed answer's text through this.
    db.function('journal_unpacked', { deterministic: true }, (packed: unknown) =>
      typeof packed === 'string' ? unpackJournalText(packed) : null,
    );
  }

  /**
   * Inserts the rows of a batch (in its parts, see journal-row.ts) in one transaction, keeps only the newest `limit` entries, and returns
   * the new entries' ids in order.
   */
  insertMany(batch: JournalBatch, limit: number): number[] {
    this.layoutsOf(batch);
    return this.db
      .transaction(() => {
        const ids: number[] = [];
        for (const rows of batch) for (let at = 0; at < rows.length; at += JOURNAL_ROW_WIDTH) ids.push(this.insertRow(rows, at));
        // Ids are given in order and never reused: the newest `limit` entries are among the last `limit` ids (fewer when a
        // test id's entries were reset), so the journal never holds more than `limit`.
        if (ids.length > 0) this.db.prepare('DELETE FROM journal WHERE id <= ?').run(ids[ids.length - 1]! - limit);
        return ids;
      })
      .immediate();
  }

  /**
   * Inserts the row at `at` of `rows`, binding only the values it has, its answer's text packed when that pays
   * (journal-pack.ts: a stream's events repeat most of each other; fewer bytes are fewer pages to write); answers its id.
   */
  private insertRow(rows: JournalRows, at: number): number {
    const relay = rows[at + JOURNAL_RELAY_PLACE] as string | null;
    const packed = this.packedAnswer(rows, at);
    // Stored packed, the answer's own column stays null (the batch is this thread's own: it is changed in place).
    if (packed !== null) rows[at + JOURNAL_RESPONSE_TEXT] = null;
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
    let insert = this.inserts.get(nulls);
    if (!insert && this.inserts.size < JOURNAL_INSERTS_KEPT) {
      insert = this.db.prepare(insertSql(nulls));
      this.inserts.set(nulls, insert);
    }
    // A set past the kept statements: every column bound, nulls included.
    const { lastInsertRowid } = insert
      ? insert.run(...values)
      : this.db.prepare(insertSql(0)).run(rows.slice(at, at + JOURNAL_COLUMN_VALUES), detailJson, relay, packed);
    return Number(lastInsertRowid);
  }

  /**
   * The packed text of the answer of the row at `at` (null when it is stored as it is): a kept render's made from its
   * layout (see `keptAnswer`); else its text (UTF-8 bytes decoded in place, see `decodedJournalAnswer`) packed.
   */
  private packedAnswer(rows: JournalRows, at: number): string | null {
    const layout = rows[at + JOURNAL_KEPT_REF] as unknown as SlotLayout | null;
    if (layout !== null) return this.keptAnswer(rows, at, layout);
    const answer = rows[at + JOURNAL_RESPONSE_TEXT];
    if (!(answer instanceof Uint8Array)) return typeof answer === 'string' ? packJournalText(answer) : null;
    const text = decodedJournalAnswer(answer);
    rows[at + JOURNAL_RESPONSE_TEXT] = text;
    return packJournalText(text);
  }

  /**
   * A kept render's answer, packed: from the render's template when it is proved for this layout (no bytes made), else
   * from the template against the answer's bytes made again from the layout, else those bytes decoded and packed (the
   * template told, see journal-kept-packs.ts).
   */
  private keptAnswer(rows: JournalRows, at: number, layout: SlotLayout): string | null {
    const identity = rows[at + JOURNAL_KEPT_IDENTITY] as string;
    const fast = this.keptPacks.packedFrom(layout.id, identity, layout);
    if (fast !== undefined) return fast;
    const bytes = answerBytesOf(layout, identity);
    if (bytes === undefined) return null;
    const made = this.keptPacks.packed(layout.id, identity, bytes, layout);
    if (made !== undefined) return made;
    const text = decodedJournalAnswer(bytes);
    rows[at + JOURNAL_RESPONSE_TEXT] = text;
    const packed = packJournalText(text);
    this.keptPacks.learn(layout.id, identity, bytes, text, packed);
    return packed;
  }

  /**
   * Each kept render's ref in `batch` made the layout it names, before the insert: the slots it defines are this thread's
   * whatever becomes of the insert (the event loop counts on them for the batches after it).
   */
  private layoutsOf(batch: JournalBatch): void {
    for (const rows of batch)
      for (let at = JOURNAL_KEPT_REF; at < rows.length; at += JOURNAL_ROW_WIDTH) {
        const ref = rows[at] as KeptRef | null;
        // A slot never defined (which the event loop never refers to) leaves the answer without its text.
        if (ref !== null) rows[at] = (this.layouts.layoutOf(ref) ?? null) as unknown as KeptRef | null;
      }
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
        text: row.response_text ?? (row.response_packed === null ? stored.response.text : unpackJournalText(row.response_packed)),
      },
      token: row.token ?? detailToken ?? null,
      ...(row.relay_json !== null && { relay: JSON.parse(row.relay_json) as JournalRelay }),
    };
  }

  /** Removes every entry, or those of one test id; answers how many went. */
  clear(testId?: string): number {
    if (testId !== undefined) return this.db.prepare('DELETE FROM journal WHERE test_id = ?').run(testId).changes;
    return this.db.prepare('DELETE FROM journal').run().changes;
  }
}

// Journal records as they are handed to the journal thread, each made its row as the recorder is given it (and a summary read back from a row): flat arrays of at most 200 rows each (a batch's parts), each record's values in the order of the table's columns (a structured clone of arrays writes no property names), its headers and relay already JSON, and the detail's JSON made from them there.
import { JOURNAL_BODY_LIMIT, type JournalDetail, type KeptMark, type JournalRecord, type JournalSummary } from '../../../shared/journal.ts';
import type { KeptRef, KeptSlots } from './journal-kept-slots.ts';

/** The columns a row fills, in the order of a row's column values (see `JournalRows`) and then `detail_json` and `relay_json`. */
export const JOURNAL_ROW_COLUMNS =
  'at, method, path, protocol, model, account, status, duration_ms, stream, error, token, input_tokens, output_tokens, amount_micros, first_output_ms, request_text, response_text, test_id, request_id, source, fixture, cassette, detail_json, relay_json';

/** The columns a summary is read from (see `summaryOfRow`). */
const SUMMARY_COLUMNS = [
  'at',
  'method',
  'path',
  'protocol',
  'model',
  'account',
  'status',
  'duration_ms',
  'stream',
  'error',
  'token',
  'input_tokens',
  'output_tokens',
  'amount_micros',
  'first_output_ms',
  'test_id',
  'request_id',
  'source',
  'fixture',
  'cassette',
] as const;
/** The place in a row of each summary column's value; a column missing from JOURNAL_ROW_COLUMNS fails the module's load, not a summary. */
const COLUMN = placesOf(SUMMARY_COLUMNS);

function placesOf<Name extends string>(names: readonly Name[]): Record<Name, number> {
  const columns = JOURNAL_ROW_COLUMNS.split(', ');
  const places = {} as Record<Name, number>;
  for (const name of names) {
    const place = columns.indexOf(name);
    if (place < 0) throw new Error(`A journal summary reads the column ${name}, which a journal row does not have.`);
    places[name] = place;
  }
  return places;
}
/** The number of column values of a row, `detail_json` and `relay_json` excepted (they come first in a row). */
export const JOURNAL_COLUMN_VALUES = JOURNAL_ROW_COLUMNS.split(', ').length - 2;
/** The place in a row of the answer's text: on the way to the thread, its UTF-8 bytes when the capture kept them so. */
export const JOURNAL_RESPONSE_TEXT = JOURNAL_ROW_COLUMNS.split(', ').indexOf('response_text');
/** The place in a row of each of the detail's values (after the column values), then of the relay's JSON. */
const QUERY = JOURNAL_COLUMN_VALUES;
const REQUEST_HEADERS = QUERY + 1;
const REQUEST_TYPE = QUERY + 2;
const REQUEST_BYTES = QUERY + 3;
const REQUEST_TRUNCATED = QUERY + 4;
const RESPONSE_HEADERS = QUERY + 5;
const RESPONSE_TYPE = QUERY + 6;
const RESPONSE_BYTES = QUERY + 7;
const RESPONSE_TRUNCATED = QUERY + 8;
const TIMING = QUERY + 9;
const NOTES = QUERY + 10;
/** The place in a row of the relay's JSON (`relay_json`; null when not relayed). */
export const JOURNAL_RELAY_PLACE = QUERY + 11;
/**
 * The places in a row of a kept stream's render and identity, when its answer was that render whole (else null): its
 * last values. The render's place holds the call's mark (shared/journal.ts `KeptMark`) until the row is posted,
 * then the ref the thread reads its layout by (journal-kept-slots.ts `KeptRef`).
 */
export const JOURNAL_KEPT_REF = QUERY + 12;
export const JOURNAL_KEPT_IDENTITY = QUERY + 13;
/** How many values each row takes in a batch. */
export const JOURNAL_ROW_WIDTH = JOURNAL_KEPT_IDENTITY + 1;

/** A value of a row: a column's number, text or null, or one of the detail's values (see `journalRowsOf`). */
type RowValue =
  string | number | boolean | null | JournalDetail['query'] | JournalDetail['timing'] | string[] | Uint8Array | KeptMark | KeptRef;

/**
 * Records as posted to the journal thread: one flat array (a part of a batch, see `JournalBatch`), each record's values at
 * JOURNAL_ROW_WIDTH places from the last one's, so the structured clone writes (and the thread reads back) one array per
 * part rather than three per record. A record's values: its column values (numbers, texts, nulls) in the order of JOURNAL_ROW_COLUMNS; then its
 * detail without the bodies' texts (they have columns of their own): query (null when empty), request headers (JSON),
 * request content type, bytes and truncation, response headers (JSON), content type, bytes and truncation, timing, notes
 * (null when none); then its relay's JSON. The headers cross as JSON text: made on the event loop for about what cloning
 * them as objects costs there, they are a string for the thread to deserialize instead of two objects of a dozen
 * strings, and go into the detail's JSON as they are.
 */
export type JournalRows = RowValue[];

/**
 * Rows in one part of a batch: a part's array (JOURNAL_ROW_WIDTH values a row, 8 bytes each, and room to grow) stays
 * well under V8's largest object of the young generation (128 KiB). One array for a whole batch (a thousand rows at 10,000
 * calls a second) was made in the large-object space: every value pushed into it was a store from an old object to a young
 * one, which the next scavenge has to visit, and it was copied there each time it grew.
 */
export const JOURNAL_ROWS_PER_PART = 200;

/**
 * A batch as posted to the journal thread: its rows in parts of at most JOURNAL_ROWS_PER_PART rows, in order (one part
 * for a batch of up to that many).
 */
export type JournalBatch = JournalRows[];

/**
 * A batch of rows made as its records come (at each call's end, while what the record points to is still fresh in the
 * caches): each record is read once, into its part's row, and is not kept, so it dies young instead of waiting for its
 * batch (up to the recorder's flush and the thread's answer) and being promoted. `take` hands the batch over.
 */
export class JournalRowsMade {
  private parts: JournalBatch = [];
  // Pushed, never made with a length: a holey array would be cloned as a sparse one, key by key.
  private rows: JournalRows = [];
  private moved: ArrayBuffer[] = [];
  private count = 0;

  /** Records made rows since the last `take`. */
  get size(): number {
    return this.count;
  }

  /** Makes `record` the next row (whole or not at all: its values are read before any is pushed). */
  add(record: JournalRecord): void {
    if (this.rows.length === JOURNAL_ROWS_PER_PART * JOURNAL_ROW_WIDTH) {
      this.parts.push(this.rows);
      this.rows = [];
    }
    pushRow(this.rows, record);
    this.count += 1;
    // An answer kept as bytes is in storage of its own (server/response-tap.ts): moved to the thread, not copied.
    const { utf8 } = record.detail.response;
    if (utf8 !== undefined) this.moved.push(utf8.buffer as ArrayBuffer);
  }

  /** The batch made so far (its parts in order) and the buffers to move with it; starts the next one. */
  take(): { batch: JournalBatch; moved: ArrayBuffer[] } {
    const { parts, rows, moved } = this;
    if (rows.length > 0) parts.push(rows);
    this.parts = [];
    this.rows = [];
    this.moved = [];
    this.count = 0;
    return { batch: parts, moved };
  }
}

/**
 * Before `batch` is posted to the thread `slots` is kept for: each kept render's mark in it becomes the ref its row
 * carries (journal-kept-slots.ts), in the rows' order.
 */
export function referKeptAnswers(batch: JournalBatch, slots: KeptSlots): void {
  for (const rows of batch)
    for (let at = JOURNAL_KEPT_REF; at < rows.length; at += JOURNAL_ROW_WIDTH) {
      const mark = rows[at];
      if (mark !== null && typeof mark === 'object' && 'layout' in mark) rows[at] = slots.refer(mark as KeptMark);
    }
}

/** The records made one batch of rows (their values read once, only headers and relay made JSON); `moved` gets the buffers to move with it. */
export function journalRowsOf(records: readonly JournalRecord[], moved?: ArrayBuffer[]): JournalBatch {
  const made = new JournalRowsMade();
  for (const record of records) made.add(record);
  const taken = made.take();
  moved?.push(...taken.moved);
  return taken.batch;
}

/**
 * Whether the summary `summaryOfRow` makes of `record`'s row is the one made of the record itself (its fields but the
 * detail and relay): every field of it present (a record the capture makes has them all), and its cost what the row's
 * whole micro-units give back. Else the record is kept for its summary.
 */
export function rowGivesSummary(record: JournalRecord): boolean {
  const { usage } = record;
  return (
    record.token !== undefined &&
    usage !== undefined &&
    record.firstOutputMs !== undefined &&
    record.test_id !== undefined &&
    record.request_id !== undefined &&
    record.source !== undefined &&
    record.fixture !== undefined &&
    record.cassette !== undefined &&
    (usage === null || Math.round(usage.cost * 1_000_000) / 1_000_000 === usage.cost)
  );
}

/** The summary (with `id`) of the row at `index` in `batch`, a record `rowGivesSummary` accepted: its fields in the record's order. */
export function summaryOfRow(batch: JournalBatch, index: number, id: number): JournalSummary {
  const rows = batch[Math.floor(index / JOURNAL_ROWS_PER_PART)]!;
  const at = (index % JOURNAL_ROWS_PER_PART) * JOURNAL_ROW_WIDTH;
  const input = rows[at + COLUMN.input_tokens] as number | null;
  return {
    id,
    at: rows[at + COLUMN.at] as number,
    method: rows[at + COLUMN.method] as string,
    path: rows[at + COLUMN.path] as string,
    protocol: rows[at + COLUMN.protocol] as JournalSummary['protocol'],
    model: rows[at + COLUMN.model] as string | null,
    account: rows[at + COLUMN.account] as string | null,
    status: rows[at + COLUMN.status] as number,
    durationMs: rows[at + COLUMN.duration_ms] as number,
    stream: rows[at + COLUMN.stream] === 1,
    error: rows[at + COLUMN.error] as string | null,
    token: rows[at + COLUMN.token] as string | null,
    usage:
      input === null
        ? null
        : {
            inputTokens: input,
            outputTokens: rows[at + COLUMN.output_tokens] as number,
            cost: (rows[at + COLUMN.amount_micros] as number) / 1_000_000,
          },
    firstOutputMs: rows[at + COLUMN.first_output_ms] as number | null,
    test_id: rows[at + COLUMN.test_id] as string | null,
    request_id: rows[at + COLUMN.request_id] as string | null,
    source: rows[at + COLUMN.source] as JournalSummary['source'],
    fixture: rows[at + COLUMN.fixture] as string | null,
    cassette: rows[at + COLUMN.cassette] as string | null,
  };
}

/**
 * On the journal thread, before the insert: the text of an answer that came as UTF-8 bytes, decoded and cut at
 * JOURNAL_BODY_LIMIT characters: the text the capture would have made of the same chunks on the event loop.
 */
export function decodedJournalAnswer(answer: Uint8Array): string {
  return Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength).toString('utf8').slice(0, JOURNAL_BODY_LIMIT);
}

function pushRow(rows: JournalRows, record: JournalRecord): void {
  const { detail, usage } = record;
  const { request, response } = detail;
  rows.push(
    record.at,
    record.method,
    record.path,
    record.protocol,
    record.model,
    record.account,
    record.status,
    record.durationMs,
    record.stream ? 1 : 0,
    record.error,
    record.token ?? null,
    usage ? usage.inputTokens : null,
    usage ? usage.outputTokens : null,
    usage ? Math.round(usage.cost * 1_000_000) : null,
    record.firstOutputMs ?? null,
    // The bodies' texts go to their own columns, stored as they are rather than escaped inside the detail's JSON.
    request.text,
    response.text ?? response.utf8 ?? null,
    record.test_id ?? null,
    record.request_id ?? null,
    record.source ?? null,
    record.fixture ?? null,
    record.cassette ?? null,
    // An empty query (almost every call's) crosses as null: no object to clone.
    isEmpty(detail.query) ? null : detail.query,
    JSON.stringify(detail.requestHeaders),
    request.contentType,
    request.bytes,
    request.truncated,
    JSON.stringify(detail.responseHeaders),
    response.contentType,
    response.bytes,
    response.truncated,
    detail.timing,
    detail.notes ?? null,
    record.relay ? JSON.stringify(record.relay) : null,
    response.kept ?? null,
    response.kept?.identity ?? null,
  );
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

/**
 * A row's value as `JSON.stringify` writes it: a number, boolean or null spelled here (most of a row's detail), anything
 * else (a string to escape, an object) by `JSON.stringify`.
 */
function jsonOf(value: RowValue): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/** The JSON of a body's detail without its text, as `JSON.stringify` writes `{ contentType, bytes, text: null, truncated }`. */
function bodyJson(contentType: RowValue, bytes: RowValue, truncated: RowValue): string {
  return `{"contentType":${jsonOf(contentType)},"bytes":${jsonOf(bytes)},"text":null,"truncated":${jsonOf(truncated)}}`;
}

/**
 * The `detail_json` of the row at `at` in `rows` (on the journal thread): the detail as it was recorded, its bodies'
 * texts null; the same text `JSON.stringify` makes of the detail, its headers' JSON put in as it came.
 */
export function detailJsonOf(rows: JournalRows, at: number): string {
  const query = rows[at + QUERY]!;
  const notes = rows[at + NOTES]!;
  const request = bodyJson(rows[at + REQUEST_TYPE]!, rows[at + REQUEST_BYTES]!, rows[at + REQUEST_TRUNCATED]!);
  const response = bodyJson(rows[at + RESPONSE_TYPE]!, rows[at + RESPONSE_BYTES]!, rows[at + RESPONSE_TRUNCATED]!);
  return `{"query":${query === null ? '{}' : JSON.stringify(query)},"requestHeaders":${rows[at + REQUEST_HEADERS] as string},"request":${request},"responseHeaders":${rows[at + RESPONSE_HEADERS] as string},"response":${response},"timing":${jsonOf(rows[at + TIMING]!)}${notes === null ? '' : `,"notes":${JSON.stringify(notes)}`}}`;
}

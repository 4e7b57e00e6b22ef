// A journal record as it is handed to the journal thread: flat arrays in the order of the table's columns (a structured clone of arrays writes no property names), its headers and relay already JSON, and the detail's JSON made from them there.
import type { JournalDetail, JournalRecord } from '../../../shared/journal.ts';

/** The columns a row fills, in the order of `JournalRow`'s values and then `detail_json` and `relay_json`. */
export const JOURNAL_ROW_COLUMNS =
  'at, method, path, protocol, model, account, status, duration_ms, stream, error, token, input_tokens, output_tokens, amount_micros, first_output_ms, request_text, response_text, test_id, request_id, source, fixture, cassette, detail_json, relay_json';

/** The column values as bound (numbers, texts, nulls), `detail_json` and `relay_json` excepted. */
type ColumnValues = (string | number | null)[];

/** A value's JSON text (`JSON.stringify` of what the name says). */
type Json = string;

/**
 * The detail without the bodies' texts (they have columns of their own): query, request headers (JSON), request content
 * type, bytes and truncation, response headers (JSON), content type, bytes and truncation, timing, notes (null when none).
 * The headers cross as JSON text: made on the event loop for about what cloning them as objects costs there, they are a
 * string for the thread to deserialize instead of two objects of a dozen strings, and go into the detail's JSON as they are.
 */
type DetailValues = [
  query: JournalDetail['query'],
  requestHeaders: Json,
  requestType: string | null,
  requestBytes: number,
  requestTruncated: boolean,
  responseHeaders: Json,
  responseType: string | null,
  responseBytes: number,
  responseTruncated: boolean,
  timing: JournalDetail['timing'],
  notes: string[] | null,
];

/** One record as posted to the journal thread: its column values, its detail's values, its relay's JSON (`relay_json`; null when not relayed). */
export type JournalRow = [columns: ColumnValues, detail: DetailValues, relay: Json | null];

/** A record made a row (on the event loop, just before the hand-over): its values read once, only its headers and relay made JSON. */
export function journalRowOf(record: JournalRecord): JournalRow {
  const { detail, usage } = record;
  const { request, response } = detail;
  return [
    [
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
      response.text,
      record.test_id ?? null,
      record.request_id ?? null,
      record.source ?? null,
      record.fixture ?? null,
      record.cassette ?? null,
    ],
    [
      detail.query,
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
    ],
    record.relay ? JSON.stringify(record.relay) : null,
  ];
}

/**
 * The `detail_json` of a row (on the journal thread): the detail as it was recorded, its bodies' texts null; the same
 * text `JSON.stringify` makes of the detail, its headers' JSON put in as it came.
 */
export function detailJsonOf(values: DetailValues): string {
  // Read by index: no destructuring through the array iterator.
  const request = JSON.stringify({ contentType: values[2], bytes: values[3], text: null, truncated: values[4] });
  const response = JSON.stringify({ contentType: values[6], bytes: values[7], text: null, truncated: values[8] });
  const notes = values[10] === null ? '' : `,"notes":${JSON.stringify(values[10])}`;
  return `{"query":${JSON.stringify(values[0])},"requestHeaders":${values[1]},"request":${request},"responseHeaders":${values[5]},"response":${response},"timing":${JSON.stringify(values[9])}${notes}}`;
}

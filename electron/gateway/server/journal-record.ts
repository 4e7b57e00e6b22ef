// A journaled call made a journal record once it ended: its summary, its request and answer as kept (never credentials), its notes and relay tries.
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  JOURNAL_BODY_LIMIT,
  type JournalBody,
  type JournalDetail,
  type JournalProtocol,
  type JournalRecord,
} from '../../../shared/journal.ts';
import { testIdOf } from '../../../shared/test-ids.ts';
import { answerSourceOf } from './answer-source.ts';
import { CLIENT_CLOSED_STATUS } from './call-context.ts';
import type { NotesOfCall } from './call-notes.ts';
import { requestBodyOf } from './journal-body.ts';
import { protocolOf } from './protocol.ts';
import type { ResponseTap } from './response-tap.ts';

/** Request headers worth showing; credentials (authorization, x-api-key, x-goog-api-key, cookies) are never kept. */
const SAFE_REQUEST_HEADER =
  /^(content-type|content-length|accept|user-agent|origin|openai-beta|anthropic-version|anthropic-beta|x-stainless-[a-z-]+|x-goog-api-client|x-gatehouse-[a-z-]+)$/;
/** The names SAFE_REQUEST_HEADER accepts as they are (not by a prefix), and the start of every name it accepts by one. */
const SAFE_REQUEST_NAMES = new Set([
  'content-type',
  'content-length',
  'accept',
  'user-agent',
  'origin',
  'openai-beta',
  'anthropic-version',
  'anthropic-beta',
  'x-goog-api-client',
]);
/** SAFE_REQUEST_HEADER's verdict: a set's look-up for the names every call sends, the expression only for names starting `x-`. */
const isSafeRequestHeader = (name: string): boolean =>
  SAFE_REQUEST_NAMES.has(name) || (name.startsWith('x-') && SAFE_REQUEST_HEADER.test(name));
/** Every answer header is kept but the cookies it sets. */
const notSetCookie = (name: string): boolean => name !== 'set-cookie';
/** Query parameters that carry credentials (Gemini's `?key=`). */
const SECRET_QUERY = new Set(['key', 'api_key', 'admin_token']);
/** The error of a call whose client left before any of the answer was sent. */
const CLIENT_CLOSED_MESSAGE = 'The client closed the connection before the answer was sent.';

function journalProtocolOf(path: string): JournalProtocol {
  if (path.startsWith('/v1/3d/')) return 'tasks3d';
  return protocolOf(path);
}

/** A text whose first character past white space (as trimStart() skips it) opens a JSON object. */
const STARTS_AN_OBJECT = /^\s*\{/;
/** A field named `error` or `success` anywhere in a text: one regular expression scans an answer several times faster than two `includes`. */
const NAMES_AN_ERROR_FIELD = /"(?:error|success)"/;

/** The message of an error answer in any of the gateway's protocols (the portrait envelope answers business errors with 200). */
function errorMessageOf(status: number, text: string | null): string | null {
  if (!text) return status >= 400 ? `HTTP ${status}` : null;
  // Only a JSON object can carry an error message; anything else (a stream, say) is not parsed at all.
  // A test of its start, not trimStart(): no copy of the whole answer.
  if (!STARTS_AN_OBJECT.test(text)) return status >= 400 ? `HTTP ${status}` : null;
  // A success status carries an error only in a field named so: most answers need no parse at all.
  if (status < 400 && !NAMES_AN_ERROR_FIELD.test(text)) return null;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; success?: unknown };
    if (typeof body.error === 'object' && typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.error === 'string') return body.error;
    if (body.success === false && typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: a stream or plain text.
  }
  return status >= 400 ? `HTTP ${status}` : null;
}

/**
 * The answer's text as `errorMessageOf` needs it: when it was kept as bytes (a long answer, see response-tap.ts), decoded
 * only if it may open a JSON object; else null, which `errorMessageOf` reads as it reads any text that opens none.
 */
function textForError(response: JournalBody): string | null {
  const { utf8 } = response;
  if (utf8 === undefined) return response.text;
  let at = 0;
  // ASCII white space (all of `\s` below 0x80); past it, any other ASCII character but `{` opens no object.
  while (at < utf8.length && (utf8[at] === 0x20 || (utf8[at]! >= 0x09 && utf8[at]! <= 0x0d))) at += 1;
  if (at === utf8.length || (utf8[at]! < 0x80 && utf8[at] !== 0x7b)) return null;
  return Buffer.from(utf8.buffer, utf8.byteOffset, utf8.length).toString('utf8').slice(0, JOURNAL_BODY_LIMIT);
}

/** The headers `keep` accepts of a request's (named in lower case by Node), each value as one string. */
function stringHeaders(headers: Record<string, unknown>, keep: (name: string) => boolean): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && keep(name)) kept[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

/** The facts of a call the capture knows beside its request: when it arrived, its path and query, and its token's holder. */
export interface CallFacts {
  at: number;
  path: string;
  search: string;
  startedAt: number;
  account: string;
  token: string;
}

/** The journal record of a finished call. */
export function recordOf(
  request: FastifyRequest,
  raw: ServerResponse,
  tap: ResponseTap,
  notes: NotesOfCall,
  call: CallFacts & { model: string | null },
): JournalRecord {
  const { path } = call;
  const responseHeaders = tap.headers(notSetCookie);
  const contentType = responseHeaders['content-type'] ?? null;
  const stream = (contentType ?? '').includes('event-stream') || path.includes(':streamGenerateContent');
  // A client that left before any of its answer was sent is recorded so, whatever was written after it left.
  const status = request.clientLeftEarly ? CLIENT_CLOSED_STATUS : raw.statusCode;
  const response = tap.body(contentType);
  const timing = stream ? tap.timing(!raw.writableFinished) : null;
  const { usage } = notes;
  const replayed = replayNote(request);
  // Plain literals, the optional keys added last: an object spread in a literal costs microseconds per record here.
  const detail: JournalDetail = {
    query: queryOf(call.search),
    requestHeaders: safeRequestHeaders(request),
    request: requestBodyOf(request),
    responseHeaders,
    response,
    timing,
  };
  if (replayed !== null) detail.notes = [...notes.texts, replayed];
  else if (notes.texts.length > 0) detail.notes = notes.texts.slice();
  const record: JournalRecord = {
    at: call.at,
    method: request.method,
    path,
    protocol: journalProtocolOf(path),
    model: call.model,
    account: call.account,
    status,
    durationMs: Math.round(performance.now() - call.startedAt),
    stream,
    error: request.clientLeftEarly ? CLIENT_CLOSED_MESSAGE : errorMessageOf(status, textForError(response)),
    token: call.token,
    usage: usage && { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cost: usage.amountMicros / 1_000_000 },
    // A relayed stream's output is not read by the gateway: its first byte is the nearest it knows. An output made before the
    // first byte left (a stream at hand is made whole, then written at once) reached the caller with that byte.
    firstOutputMs: timing ? Math.max(notes.firstOutputMs ?? 0, timing.firstByteMs) : null,
    test_id: testIdOf(request.headers) ?? null,
    request_id: request.id,
    // Who answered: a fixture, else a cassette, else a relay channel (its tries noted), else the simulator; none for a call refused before.
    source: answerSourceOf(request, notes.decidedBy),
    fixture: notes.fixtureLabel,
    cassette: request.journalReplay?.file ?? null,
    detail,
  };
  if (request.journalRelay) record.relay = request.journalRelay;
  return record;
}

/** What the owner should know of a replayed call: a cassette recorded through another client protocol was rendered through this one's; null otherwise. */
function replayNote(request: FastifyRequest): string | null {
  const replay = request.journalReplay;
  if (!replay?.translatedFrom) return null;
  return `Replayed from ${replay.file} (sequence ${replay.sequence}), recorded through the ${replay.translatedFrom} protocol and rendered through this call's: what that protocol cannot carry is lost (see docs/record-replay.md).`;
}

/** A call's query without credentials, for its entry's detail. */
function queryOf(search: string): Record<string, string> {
  return search === '' ? {} : Object.fromEntries([...new URLSearchParams(search)].filter(([name]) => !SECRET_QUERY.has(name)));
}

/** A call's safe request headers, for its entry's detail. */
function safeRequestHeaders(request: FastifyRequest): Record<string, string> {
  return stringHeaders(request.headers, isSafeRequestHeader);
}

/**
 * The entry of a relayed realtime session, once it ended: status 101 when a channel opened it (its duration the session's),
 * else the last upstream status (502 when none answered); the frames are not recorded, the relay's tries are.
 */
export function relayedSessionRecord(request: FastifyRequest, call: CallFacts): JournalRecord {
  const relay = request.journalRelay!;
  const opened = relay.channel !== null;
  const status = opened ? 101 : (relay.attempts.at(-1)?.status ?? 502);
  const model = new URLSearchParams(call.search).get('model');
  const empty: JournalBody = { contentType: null, bytes: 0, text: null, truncated: false };
  return {
    at: call.at,
    method: request.method,
    path: call.path,
    protocol: journalProtocolOf(call.path),
    model: model ? model.slice(0, 200) : null,
    account: call.account,
    status,
    durationMs: Math.round(performance.now() - call.startedAt),
    stream: false,
    error: opened ? null : 'No channel opened the realtime session (see the tries).',
    token: call.token,
    test_id: testIdOf(request.headers) ?? null,
    request_id: request.id,
    source: 'relay',
    detail: {
      query: queryOf(call.search),
      requestHeaders: safeRequestHeaders(request),
      request: empty,
      responseHeaders: {},
      response: empty,
      timing: null,
    },
    relay,
  };
}

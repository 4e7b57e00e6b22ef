// Watches each API call once: its notes and answer source header always, and for the request journal the request and the answer as written (streams included, with chunk timing), never credentials.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  JOURNAL_BODY_LIMIT,
  type JournalBody,
  type JournalDetail,
  type JournalProtocol,
  type JournalRecord,
  type StreamTiming,
} from '../../../shared/journal.ts';
import type { CallNotes } from '../principal.ts';
import type { JournalRecorder } from '../services/journal.ts';
import type { Clock } from '../time.ts';
import { answerSourceOf, nameAnswerSource } from './answer-source.ts';
import { CLIENT_CLOSED_STATUS } from './call-context.ts';
import { requestBodyOf, TEXTUAL_CONTENT } from './journal-body.ts';
import { protocolOf } from './protocol.ts';
import { tapWrites } from './write-tap.ts';
import { testIdOf } from '../../../shared/test-ids.ts';
import { syncHook } from './sync-hook.ts';

/** Request headers worth showing; credentials (authorization, x-api-key, x-goog-api-key, cookies) are never kept. */
const SAFE_REQUEST_HEADER =
  /^(content-type|content-length|accept|user-agent|origin|openai-beta|anthropic-version|anthropic-beta|x-stainless-[a-z-]+|x-goog-api-client|x-gatehouse-[a-z-]+)$/;
/** Query parameters that carry credentials (Gemini's `?key=`). */
const SECRET_QUERY = new Set(['key', 'api_key', 'admin_token']);
const MAX_OFFSETS = 500;
/** Encoding names Node reads as UTF-8 (a string written so is kept as it is). */
const UTF8_NAME = /^utf-?8$/i;
/** The error of a call whose client left before any of the answer was sent. */
const CLIENT_CLOSED_MESSAGE = 'The client closed the connection before the answer was sent.';

/** A request URL's path and query, as `url.split('?', 2)` gives them (the query ends at a second '?'), without the array. */
function splitUrl(url: string): { path: string; search: string } {
  const mark = url.indexOf('?');
  if (mark === -1) return { path: url, search: '' };
  const end = url.indexOf('?', mark + 1);
  return { path: url.slice(0, mark), search: url.slice(mark + 1, end === -1 ? undefined : end) };
}

/** API paths are journaled; the console, admin API, health checks and sockets are not. */
export function isJournaledPath(path: string): boolean {
  return /^\/(v1|v1beta|v2)\//.test(path);
}

function journalProtocolOf(path: string): JournalProtocol {
  if (path.startsWith('/v1/3d/')) return 'tasks3d';
  return protocolOf(path);
}

/** The model a call named: the body's `model`, or Gemini's `models/{model}:method` path. */
export function modelOf(path: string, body: unknown): string | null {
  const fromPath = /\/models\/([^/:]+):/.exec(path);
  if (fromPath) return decodedOrRaw(fromPath[1]!).slice(0, 200);
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' && model !== '' ? model.slice(0, 200) : null;
}

function decodedOrRaw(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
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

/** No lone surrogate: its UTF-8 bytes decode back to the same string (String.prototype.isWellFormed, ES2024, in Node 20 on). */
const wellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * Watches what is written to the raw response: bytes, the first part as written, and when each write happened; its
 * head's headers come from `watchHead`. A chunk is kept as it was written (a string is neither encoded nor copied):
 * its text is made once, when the record asks for it.
 */
function tapResponse(raw: ServerResponse, startedAt: number) {
  const kept: (Buffer | string)[] = [];
  /** The encoding of each kept string that is not UTF-8, by its index in `kept` (almost always empty). */
  let encodings: Map<number, BufferEncoding> | undefined;
  let keptBytes = 0;
  let bytes = 0;
  const offsets: number[] = [];
  let writes = 0;
  let firstByteMs: number | null = null;
  const note = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    let piece: Buffer | string;
    let size: number;
    if (typeof chunk === 'string') {
      piece = chunk;
      const named = typeof encoding === 'string' && !UTF8_NAME.test(encoding) ? (encoding as BufferEncoding) : undefined;
      size = named === undefined ? Buffer.byteLength(chunk) : Buffer.byteLength(chunk, named);
      if (named !== undefined && size > 0 && keptBytes <= JOURNAL_BODY_LIMIT) (encodings ??= new Map()).set(kept.length, named);
    } else {
      // A Buffer is kept as it is (as before); another Uint8Array is copied, as Buffer.from always did.
      piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size = piece.length;
    }
    if (size === 0) return;
    const offset = Math.round(performance.now() - startedAt);
    firstByteMs ??= offset;
    writes += 1;
    if (offsets.length < MAX_OFFSETS) offsets.push(offset);
    bytes += size;
    if (keptBytes <= JOURNAL_BODY_LIMIT) {
      kept.push(piece);
      keptBytes += size;
    }
  };
  /** The kept chunks decoded as UTF-8 once joined as bytes: strings are joined as they are when that gives the same text. */
  const keptText = (): string => {
    if (kept.length === 1 && typeof kept[0] === 'string' && encodings === undefined && wellFormed(kept[0])) return kept[0];
    if (encodings === undefined && kept.every((piece) => typeof piece === 'string' && wellFormed(piece))) return kept.join('');
    const buffers = kept.map((piece, index) => (typeof piece === 'string' ? Buffer.from(piece, encodings?.get(index) ?? 'utf8') : piece));
    return (buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers)).toString('utf8');
  };
  // Fastify and the stream writers pass their headers to writeHead, where getHeader() does not see them.
  let headGiven: object = NO_HEADERS;
  tapWrites(raw, note);
  return {
    /** Told the headers given to writeHead (see `watchHead`): kept as they are, read when the record is made. */
    head(given: object): void {
      headGiven = given;
    },
    /** Every header sent, whichever way it was set (those given to writeHead win, named in lower case). */
    headers(): Record<string, unknown> {
      // getHeaders() is a fresh copy: the head's headers are added to it, in the order a spread of both would give.
      const sent: Record<string, unknown> = raw.getHeaders();
      for (const name in headGiven) {
        if (Object.hasOwn(headGiven, name)) sent[name.toLowerCase()] = (headGiven as Record<string, unknown>)[name];
      }
      return sent;
    },
    body(contentType: string | null): JournalBody {
      if (!contentType || !TEXTUAL_CONTENT.test(contentType)) return { contentType, bytes, text: null, truncated: false };
      const text = keptText();
      return { contentType, bytes, text: text.slice(0, JOURNAL_BODY_LIMIT), truncated: bytes > JOURNAL_BODY_LIMIT };
    },
    timing(cut: boolean): StreamTiming {
      return { firstByteMs: firstByteMs ?? 0, chunks: writes, chunkOffsetsMs: offsets, cut };
    },
  };
}

/** The notes of one call: its charges added up, when its first output was produced, and what the owner should know of it. */
class NotesOfCall implements CallNotes {
  private readonly startedAt: number;
  usage: { inputTokens: number; outputTokens: number; amountMicros: number } | null = null;
  firstOutputMs: number | null = null;
  texts: string[] = [];
  fixtureLabel: string | null = null;
  refusedBy: 'fixture' | 'replay' | null = null;
  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }
  charged(charge: { inputTokens: number; outputTokens: number; amountMicros: number }): void {
    const sum = this.usage ?? { inputTokens: 0, outputTokens: 0, amountMicros: 0 };
    this.usage = {
      inputTokens: sum.inputTokens + charge.inputTokens,
      outputTokens: sum.outputTokens + charge.outputTokens,
      amountMicros: sum.amountMicros + charge.amountMicros,
    };
  }
  firstOutput(): void {
    this.firstOutputMs ??= Math.round(performance.now() - this.startedAt);
  }
  note(text: string): void {
    if (this.texts.length < MAX_CALL_NOTES) this.texts.push(text);
  }
  fixture(label: string): void {
    this.fixtureLabel = label;
  }
  refused(by: 'fixture' | 'replay'): void {
    this.refusedBy = by;
  }
  /** Who decided the answer before any provider ran: a fixture (answering or refusing), replay refusing; null otherwise. */
  get decidedBy(): 'fixture' | 'replay' | null {
    return this.fixtureLabel !== null ? 'fixture' : this.refusedBy;
  }
}

/** The headers of a writeHead given none (never written to). */
const NO_HEADERS: object = Object.freeze({});

/** Most notes one journal entry keeps (a call is charged a few times at most). */
const MAX_CALL_NOTES = 8;

/** The headers `keep` accepts, named in lower case, each value as one string. */
function stringHeaders(headers: Record<string, unknown>, keep: (name: string) => boolean): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    const lower = name.toLowerCase();
    if (value !== undefined && keep(lower)) kept[lower] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

/**
 * Calls `onHead` with the headers passed to writeHead (an empty object when none), just before the head is written:
 * one wrap per call, however many parts of the gateway need to see its head.
 */
function watchHead(raw: ServerResponse, onHead: (given: object) => void): void {
  const writeHead = raw.writeHead;
  raw.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    let given: object = NO_HEADERS;
    for (const item of rest) {
      if (typeof item === 'object' && item !== null) {
        if (!Array.isArray(item)) given = item;
        break;
      }
    }
    onHead(given);
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse['writeHead'];
}

/** What the journal needs from the gateway. */
export interface JournalHookOptions {
  recorder: JournalRecorder;
  clock: Clock;
  /** The account and token name of the API token a call named (usable or refused), or null when it named none of this gateway's. */
  holderOf: (request: FastifyRequest) => { account: string; token: string } | null;
}

/**
 * Adds the one hook that watches API calls (after the Host check, before authentication): each call gets its notes
 * (`request.callNotes`, where the services note charges, first output and a fixture answer) and its answer's
 * `x-gatehouse-source` header, set as the head is written; with `journal`, each finished (or abandoned) call that
 * names one of the gateway's tokens also becomes one journal record (a refused token's call included). Calls naming
 * none (what any web page can send with a no-cors fetch) are only counted, so they cannot push real entries out. A
 * failure while recording loses that entry, never the process. One hook, one notes object and one writeHead wrap per
 * call serve both.
 */
export function installCallCapture(app: FastifyInstance, journal: JournalHookOptions | null): void {
  app.addHook(
    'onRequest',
    syncHook((request, reply) => {
      const { path, search } = splitUrl(request.url);
      // Preflights are not calls of the API; nor are sockets, but for a relayed realtime session.
      if (!isJournaledPath(path) || request.method === 'OPTIONS') return;
      if (request.ws) {
        if (journal) journalSession(request, journal, path, search);
        return;
      }
      const startedAt = performance.now();
      const notes = new NotesOfCall(startedAt);
      request.callNotes = notes;
      const raw = reply.raw;
      if (!journal) {
        watchHead(raw, () => nameAnswerSource(request, raw, notes.decidedBy));
        return;
      }
      const { recorder, clock, holderOf } = journal;
      const at = clock.now();
      const tap = tapResponse(raw, startedAt);
      watchHead(raw, (given) => {
        nameAnswerSource(request, raw, notes.decidedBy);
        tap.head(given);
      });
      raw.once('close', () => {
        try {
          const holder = holderOf(request);
          if (holder === null) {
            recorder.countUnauthenticated();
            return;
          }
          recorder.add(recordOf(request, raw, tap, notes, { at, path, search, startedAt, account: holder.account, token: holder.token }));
        } catch (error) {
          recorder.fail(error);
        }
      });
    }),
  );
}

/** The socket of a realtime session closes when it ends; only a session relay tried to open upstream becomes an entry. */
function journalSession(request: FastifyRequest, { recorder, clock, holderOf }: JournalHookOptions, path: string, search: string): void {
  const startedAt = performance.now();
  const at = clock.now();
  request.raw.socket.once('close', () => {
    try {
      const holder = request.journalRelay && holderOf(request);
      if (holder)
        recorder.add(relayedSessionRecord(request, { at, path, search, startedAt, account: holder.account, token: holder.token }));
    } catch (error) {
      recorder.fail(error);
    }
  });
}

/** The journal record of a finished call. */
function recordOf(
  request: FastifyRequest,
  raw: ServerResponse,
  tap: ReturnType<typeof tapResponse>,
  notes: NotesOfCall,
  call: { at: number; path: string; search: string; startedAt: number; account: string; token: string },
): JournalRecord {
  const { path } = call;
  const sent = tap.headers();
  const contentType = typeof sent['content-type'] === 'string' ? sent['content-type'] : null;
  const stream = (contentType ?? '').includes('event-stream') || path.includes(':streamGenerateContent');
  // A client that left before any of its answer was sent is recorded so, whatever was written after it left.
  const status = request.clientLeftEarly ? CLIENT_CLOSED_STATUS : raw.statusCode;
  const response = tap.body(contentType);
  const timing = stream ? tap.timing(!raw.writableFinished) : null;
  const { usage } = notes;
  const told = [...notes.texts, ...replayNotes(request)];
  // Plain literals, the optional keys added last: an object spread in a literal costs microseconds per record here.
  const detail: JournalDetail = {
    query: queryOf(call.search),
    requestHeaders: safeRequestHeaders(request),
    request: requestBodyOf(request),
    responseHeaders: stringHeaders(sent, (name) => name !== 'set-cookie'),
    response,
    timing,
  };
  if (told.length > 0) detail.notes = told;
  const record: JournalRecord = {
    at: call.at,
    method: request.method,
    path,
    protocol: journalProtocolOf(path),
    model: modelOf(path, request.body),
    account: call.account,
    status,
    durationMs: Math.round(performance.now() - call.startedAt),
    stream,
    error: request.clientLeftEarly ? CLIENT_CLOSED_MESSAGE : errorMessageOf(status, response.text),
    token: call.token,
    usage: usage && { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cost: usage.amountMicros / 1_000_000 },
    // A relayed stream's output is not read by the gateway: its first byte is the nearest it knows.
    firstOutputMs: timing ? (notes.firstOutputMs ?? timing.firstByteMs) : null,
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

/** What the owner should know of a replayed call: a cassette recorded through another client protocol was rendered through this one's. */
function replayNotes(request: FastifyRequest): string[] {
  const replay = request.journalReplay;
  if (!replay?.translatedFrom) return [];
  return [
    `Replayed from ${replay.file} (sequence ${replay.sequence}), recorded through the ${replay.translatedFrom} protocol and rendered through this call's: what that protocol cannot carry is lost (see docs/record-replay.md).`,
  ];
}

/** A call's query without credentials, for its entry's detail. */
function queryOf(search: string): Record<string, string> {
  return search === '' ? {} : Object.fromEntries([...new URLSearchParams(search)].filter(([name]) => !SECRET_QUERY.has(name)));
}

/** A call's safe request headers, for its entry's detail. */
function safeRequestHeaders(request: FastifyRequest): Record<string, string> {
  return stringHeaders(request.headers, (name) => SAFE_REQUEST_HEADER.test(name));
}

/**
 * The entry of a relayed realtime session, once it ended: status 101 when a channel opened it (its duration the session's),
 * else the last upstream status (502 when none answered); the frames are not recorded, the relay's tries are.
 */
function relayedSessionRecord(
  request: FastifyRequest,
  call: { at: number; path: string; search: string; startedAt: number; account: string; token: string },
): JournalRecord {
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

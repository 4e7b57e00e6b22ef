// Records each API call for the request journal: the request, the answer as written (streams included, with chunk timing), never credentials.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { JOURNAL_BODY_LIMIT, type JournalBody, type JournalProtocol, type StreamTiming } from '../../../shared/journal.ts';
import type { JournalRecorder } from '../services/journal.ts';
import type { JournalRecord } from '../storage/journal-repo.ts';
import type { Clock } from '../time.ts';
import { protocolOf } from './protocol.ts';

/** Request headers worth showing; credentials (authorization, x-api-key, x-goog-api-key, cookies) are never kept. */
const SAFE_REQUEST_HEADER = /^(content-type|content-length|accept|user-agent|origin|openai-beta|anthropic-version|anthropic-beta|x-stainless-[a-z-]+|x-goog-api-client|x-gatehouse-[a-z-]+)$/;
/** Query parameters that carry credentials (Gemini's `?key=`). */
const SECRET_QUERY = new Set(['key', 'api_key', 'admin_token']);
const TEXTUAL = /json|text\/|event-stream|xml|x-www-form-urlencoded|x-ndjson/;
const MAX_OFFSETS = 500;

/** API paths are journaled; the console, admin API, health checks and sockets are not. */
export function isJournaledPath(path: string): boolean {
  return /^\/(v1|v1beta|v2)\//.test(path);
}

function journalProtocolOf(path: string): JournalProtocol {
  if (path.startsWith('/v1/3d/')) return 'tasks3d';
  return protocolOf(path);
}

/** The model a call named: the body's `model`, or Gemini's `models/{model}:method` path. */
function modelOf(path: string, body: unknown): string | null {
  const fromPath = /\/models\/([^/:]+):/.exec(path);
  if (fromPath) return decodeURIComponent(fromPath[1]!);
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' && model !== '' ? model.slice(0, 200) : null;
}

function textBody(text: string, contentType: string | null, bytes = Buffer.byteLength(text)): JournalBody {
  const truncated = text.length > JOURNAL_BODY_LIMIT;
  return { contentType, bytes, text: truncated ? text.slice(0, JOURNAL_BODY_LIMIT) : text, truncated };
}

function requestBody(request: FastifyRequest): JournalBody {
  const contentType = typeof request.headers['content-type'] === 'string' ? request.headers['content-type'] : null;
  const declared = Number(request.headers['content-length'] ?? 0);
  const body = request.body;
  if (body === undefined || body === null) return { contentType, bytes: declared, text: null, truncated: false };
  if (typeof body === 'string') return textBody(body, contentType);
  if (Buffer.isBuffer(body)) return { contentType, bytes: body.length, text: null, truncated: false };
  // Indented for reading, unless only the compact form fits whole (so the call can still be replayed).
  const indented = JSON.stringify(body, null, 2) ?? '';
  const text = indented.length > JOURNAL_BODY_LIMIT ? (JSON.stringify(body) ?? '') : indented;
  return textBody(text, contentType, declared || Buffer.byteLength(text));
}

/** The message of an error answer in any of the gateway's protocols (the portrait envelope answers business errors with 200). */
function errorMessageOf(status: number, text: string | null): string | null {
  if (!text) return status >= 400 ? `HTTP ${status}` : null;
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

/** Watches what is written to the raw response: bytes, the first part as text, and when each write happened. */
function tapResponse(raw: ServerResponse, startedAt: number) {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  const offsets: number[] = [];
  let writes = 0;
  let firstByteMs: number | null = null;
  const note = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    if (buffer.length === 0) return;
    const offset = Math.round(performance.now() - startedAt);
    firstByteMs ??= offset;
    writes += 1;
    if (offsets.length < MAX_OFFSETS) offsets.push(offset);
    bytes += buffer.length;
    if (keptBytes <= JOURNAL_BODY_LIMIT) {
      kept.push(buffer);
      keptBytes += buffer.length;
    }
  };
  // Fastify and the stream writers pass their headers to writeHead, where getHeader() does not see them.
  let headHeaders: Record<string, unknown> = {};
  const writeHead = raw.writeHead;
  raw.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((item) => typeof item === 'object' && item !== null);
    if (headers && !Array.isArray(headers)) headHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse['writeHead'];
  const write = raw.write;
  const end = raw.end;
  raw.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    note(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  raw.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    note(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
  return {
    /** Every header sent, whichever way it was set. */
    headers(): Record<string, unknown> {
      return { ...raw.getHeaders(), ...headHeaders };
    },
    body(contentType: string | null): JournalBody {
      if (!contentType || !TEXTUAL.test(contentType)) return { contentType, bytes, text: null, truncated: false };
      const text = Buffer.concat(kept).toString('utf8');
      return { contentType, bytes, text: text.slice(0, JOURNAL_BODY_LIMIT), truncated: bytes > JOURNAL_BODY_LIMIT };
    },
    timing(cut: boolean): StreamTiming {
      return { firstByteMs: firstByteMs ?? 0, chunks: writes, chunkOffsetsMs: offsets, cut };
    },
  };
}

const stringHeaders = (headers: Record<string, unknown>, keep: (name: string) => boolean) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => value !== undefined && keep(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]),
  );

/** Adds the hook; each finished (or abandoned) API call becomes one journal record. */
export function installJournal(app: FastifyInstance, recorder: JournalRecorder, clock: Clock): void {
  app.addHook('onRequest', async (request, reply) => {
    const [path = '', search = ''] = request.url.split('?', 2);
    // Preflights and sockets are not calls of the API.
    if (!isJournaledPath(path) || request.ws || request.method === 'OPTIONS') return;
    const startedAt = performance.now();
    const at = clock.now();
    const tap = tapResponse(reply.raw, startedAt);
    reply.raw.once('close', () => {
      const raw = reply.raw;
      const sent = tap.headers();
      const contentType = typeof sent['content-type'] === 'string' ? sent['content-type'] : null;
      const stream = (contentType ?? '').includes('event-stream') || path.includes(':streamGenerateContent');
      const status = raw.statusCode;
      const response = tap.body(contentType);
      const body = request.body;
      const record: JournalRecord = {
        at,
        method: request.method,
        path,
        protocol: journalProtocolOf(path),
        model: modelOf(path, body),
        account: request.principal?.accountName ?? null,
        status,
        durationMs: Math.round(performance.now() - startedAt),
        stream,
        error: errorMessageOf(status, response.text),
        detail: {
          query: Object.fromEntries([...new URLSearchParams(search)].filter(([name]) => !SECRET_QUERY.has(name))),
          requestHeaders: stringHeaders(request.headers, (name) => SAFE_REQUEST_HEADER.test(name)),
          request: requestBody(request),
          responseHeaders: stringHeaders(sent, (name) => name !== 'set-cookie'),
          response,
          timing: stream ? tap.timing(!raw.writableFinished) : null,
        },
      };
      recorder.add(record);
    });
  });
}

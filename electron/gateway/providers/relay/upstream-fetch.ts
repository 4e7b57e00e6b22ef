// One upstream request (undici's dispatcher with a handler of its own, upstream-call.ts: no WHATWG or Node streams per call): aborted when the caller goes away, and given up when its headers, a body chunk or the whole answer take longer than the channel allows.
import { Readable } from 'node:stream';
import type { getGlobalDispatcher as GetDispatcher, request as UndiciRequest } from 'undici';
import { GatewayError } from '../../errors.ts';
import { decodedBody } from './content-decoding.ts';
import { UpstreamBody } from './upstream-body.ts';
import { UpstreamCall } from './upstream-call.ts';
import { UpstreamHeaders } from './upstream-headers.ts';
import { UpstreamTimer, type UpstreamTimeouts } from '../upstream-timer.ts';

/** What relay reads of an upstream answer: its status, headers and body bytes as they arrive. */
export interface UpstreamResponse {
  status: number;
  ok: boolean;
  headers: UpstreamHeaders;
  body: AsyncIterable<Uint8Array> | null;
}

/** An upstream response and the way to stop it (its body is read later, and stopped when the caller stops reading). */
export interface Fetched {
  response: UpstreamResponse;
  /** Aborts the request (idempotent); call it once the body is read or given up. */
  stop(): void;
}

/** What is sent: the method (POST by default), headers (made for this request: `accept-encoding` is set on them) and body (none for GET and DELETE; a stream for a multipart form). */
export interface UpstreamInit {
  method?: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  body?: Buffer | AsyncIterable<Uint8Array>;
}

/** undici, once loaded: undici is a tenth of the gateway's start-up, so it loads with the first relayed call, not at start. */
let loaded: { request: typeof UndiciRequest; dispatcher: typeof GetDispatcher } | undefined;

async function loadUndici(): Promise<NonNullable<typeof loaded>> {
  const undici = await import('undici');
  loaded = { request: undici.request, dispatcher: undici.getGlobalDispatcher };
  return loaded;
}

/** Most upstream URLs whose origin and path are kept parsed (a channel's few paths; past it the list starts over). */
export const UPSTREAM_TARGETS_KEPT = 256;

/** Upstream URLs as undici's `request` would parse them: the origin and the path with its query. */
const targets = new Map<string, { origin: string; path: string }>();

/**
 * The origin and path undici's `request` would send `url` to, parsed once per URL; undefined for a URL it would refuse
 * (not http or https, or no URL at all), which then goes through `request` itself to fail as it always did.
 */
function targetOf(url: string): { origin: string; path: string } | undefined {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = URL.parse(url);
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return undefined;
    if (targets.size >= UPSTREAM_TARGETS_KEPT) targets.clear();
    target = { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
    targets.set(url, target);
  }
  return target;
}

/**
 * One upstream request in one object per call: undici's handler and the answer's body (UpstreamCall), what the timer
 * stops when a limit runs out, and the Fetched it answers with (`stop`).
 */
class FetchedCall extends UpstreamCall implements Fetched {
  response!: UpstreamResponse;
  readonly timer: UpstreamTimer;
  private readonly signal: AbortSignal;
  /** The caller's signal's listener (a function: a listener object kept the call's objects alive longer, s7-relay.md). */
  private readonly onAbort: () => void;

  constructor(limits: UpstreamTimeouts, signal: AbortSignal, sent: unknown) {
    super(sent);
    this.signal = signal;
    // Made into a local first, then set (server/write-tap.ts `watchHead`). No `once`: `stop` removes the listener, and an
    // aborted signal fires no more.
    const onAbort = () => this.abort(signal.reason instanceof Error ? signal.reason : new Error('the caller went away'));
    this.onAbort = onAbort;
    signal.addEventListener('abort', onAbort);
    this.timer = new UpstreamTimer(limits, this);
  }

  stop(): void {
    this.timer.stop();
    this.signal.removeEventListener('abort', this.onAbort);
    // An answer the upstream finished has nothing left to stop (and an abort reason costs a stack trace per call).
    if (!this.ended) this.abort(new Error('the relay stopped reading'));
  }
}

/**
 * Sends `init` to `url` (a streamed body is pulled as the upstream reads it). Rejects when the connection fails or no headers came
 * within the channel's `timeoutMs` (a message fit to show), or with `callerGone()` when `signal` fires first. The body then throws
 * an UpstreamTimeout when the upstream is silent for `idleTimeoutMs` or the whole call passes `deadlineMs`; either closes the connection.
 */
export async function upstreamFetch(url: string, init: UpstreamInit, limits: UpstreamTimeouts, signal: AbortSignal): Promise<Fetched> {
  const undici = loaded ?? (await loadUndici());
  if (signal.aborted) throw callerGone();
  // The body is passed on as it comes; one encoded anyway is decoded (an encoded one would reach the caller without its encoding header).
  init.headers['accept-encoding'] = 'identity';
  const sent = init.body === undefined || Buffer.isBuffer(init.body) ? init.body : Readable.from(init.body);
  const call = new FetchedCall(limits, signal, sent);
  const timer = call.timer;
  try {
    const method = init.method ?? 'POST';
    // The global dispatcher is asked as undici's `request(url)` asks it, without parsing the URL on every call.
    const target = targetOf(url) ?? (await refused(undici.request, url));
    undici.dispatcher().dispatch({ origin: target.origin, path: target.path, method, headers: init.headers, body: sent ?? null }, call);
    const answer = await call.head;
    timer.headersArrived();
    const headers = new UpstreamHeaders(answer.headers);
    const status = answer.status;
    // A final status outside 200–599 is no HTTP answer a caller could read (informational ones never reach here).
    if (status < 200 || status > 599) {
      throw new GatewayError('upstream_failed', `answered with HTTP status ${status}, which is not a final HTTP status`);
    }
    const encoding = headers.get('content-encoding');
    let body: AsyncIterable<Uint8Array>;
    if (encoding === null) {
      call.watchedBy(timer);
      body = call;
    } else {
      // Decoded as a stream (rare: relay asks for identity), the reads of the decoded bytes within the channel's limits.
      const raw = Readable.from(call, { objectMode: false });
      const decoded = decodedBody(raw, encoding);
      if (decoded !== raw) for (const name of ['content-encoding', 'content-length']) headers.delete(name);
      body = new UpstreamBody(decoded, timer);
    }
    call.response = { status, ok: status >= 200 && status < 300, headers, body };
    return call;
  } catch (error) {
    call.stop();
    if (signal.aborted) throw callerGone();
    if (error instanceof GatewayError) throw error;
    if (timer.expired) throw timer.expired;
    throw new GatewayError('upstream_failed', `connection failed (${causeOf(error)})`);
  }
}

/** What undici's `request` throws for a URL it would refuse (not http or https, or no URL at all); it sends nothing. */
async function refused(request: typeof UndiciRequest, url: string): Promise<never> {
  const answer = await request(url, { method: 'GET' });
  answer.body.destroy();
  throw new Error(`the URL ${url} was not refused as expected`);
}

/** What a relay attempt throws once the caller went away (nobody reads it; it must not pass for a gateway bug). */
export function callerGone(): GatewayError {
  return new GatewayError('upstream_failed', 'The caller went away before the upstream answered.');
}

/** The network cause of a failed fetch, e.g. ECONNREFUSED. */
function causeOf(error: unknown): string {
  const { cause, code } = error as { cause?: { code?: string; message?: string }; code?: string };
  return cause?.code ?? cause?.message ?? code ?? (error as Error).message;
}

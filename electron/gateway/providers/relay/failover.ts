// Tries the channels of a model in order until one answers: the next on a connection error, a timeout before headers or within an error body, or a retryable status; never once a body is being passed on.
import { hideSecret } from '../../../../shared/channels.ts';
import { ConfigurationError, GatewayError } from '../../errors.ts';
import type { CallContext, ChannelDirectory, PassthroughRequest, RelayChannel, UpstreamReply } from '../types.ts';
import { attemptLog } from './attempts.ts';
import { answerHeaders, upstreamHeaders } from './headers.ts';
import { refuseRelayLoop } from './hops.ts';
import { keyScrubber, scrubbedHead } from './key-scrub.ts';
import type { RelayKind } from './kind.ts';
import { RELAY_KINDS } from './kinds.ts';
import { callerGone, upstreamFetch, type Fetched, type UpstreamInit } from './upstream-fetch.ts';
import type { HeaderView } from './upstream-headers.ts';
import { RelayedBody } from './relayed-body.ts';
import { UsageTap } from './usage-tap.ts';
import { UpstreamTimeout } from '../upstream-timer.ts';

/** Statuses after which the next channel is tried (while nothing has reached the caller). */
export const RETRYABLE = new Set([408, 429, 500, 502, 503, 504, 529]);

/** A `Retry-After` up to this long puts the channel back at the end of the list, tried again no sooner; a longer one is not waited for. */
export const RETRY_AFTER_CAP_MS = 2_000;

/** Most of an error answer's body kept to give the caller when no channel answers better. */
const ERROR_BODY_LIMIT = 64 * 1024;

type Failure = {
  message: string;
  answer?: { status: number; headers: Record<string, string>; body: Uint8Array };
  /** The channel's key was refused upstream: the gateway's configuration is at fault. */
  refusal?: ConfigurationError;
};

/** A channel put back by its Retry-After, with the earliest time it may be tried again. */
type Turn = { channel: RelayChannel; notBefore: number };

/**
 * Forwards `request` over the channels of its model in `directory` order, recording each attempt. Resolves with the first
 * answer that is not retryable (a success, or a 4xx the caller must see as it is); when every channel failed, with the last
 * retryable error answer, or throws a GatewayError naming why.
 */
export async function forwardWithFailover(
  directory: ChannelDirectory,
  channels: RelayChannel[],
  request: PassthroughRequest,
  call: CallContext,
): Promise<UpstreamReply> {
  refuseRelayLoop(call, request.model);
  if (channels.length === 0) throw allCoolingDown(request.model);
  // A form streamed upstream can be sent only once: the first channel gets it, and no retry follows.
  const tries = request.form ? 1 : channels.length;
  /** The channels put back by a Retry-After, tried once more after all the others, in the order put back (made for the first). */
  let again: Turn[] | undefined;
  let last: Failure | undefined;
  const note = attemptLog(call);
  for (let index = 0; ; index++) {
    const turn = index < tries ? undefined : again?.shift();
    if (index >= tries && turn === undefined) break;
    const channel = turn === undefined ? channels[index]! : turn.channel;
    // Only a channel put back by a Retry-After waits (no await, so no extra turn, for the others).
    if (turn !== undefined) await waitUntil(turn.notBefore, call.signal);
    const kind = RELAY_KINDS[channel.kind];
    const translated = request.translated?.(channel);
    const url = kind.url(channel, translated ? { ...request, ...translated } : request);
    const { init, hideUsage } = translated
      ? {
          init: { headers: upstreamHeaders(call, channel, kind, 'application/json', translated.headers ?? {}), body: translated.body },
          hideUsage: false,
        }
      : upstreamInit(call, channel, kind, request);
    const started = Date.now();
    let fetched: Fetched;
    let latencyMs = 0;
    let errorBytes: Uint8Array | undefined;
    try {
      fetched = await upstreamFetch(url, init, channel, call.signal);
      latencyMs = Date.now() - started;
      // An error body is read before anything reaches the caller: one that stalls fails over like a connection error.
      if (!fetched.response.ok) errorBytes = await errorBody(fetched, channel.key);
    } catch (error) {
      if (call.signal.aborted) throw error;
      const message = hideSecret(error instanceof Error ? error.message : String(error), channel.key);
      directory.record(channel.id, { ok: false, latencyMs: Date.now() - started, error: message });
      note(channel, Date.now() - started, { error: message });
      last = { message: `channel '${channel.name}': ${message}` };
      continue;
    }
    const { response } = fetched;
    if (RETRYABLE.has(response.status)) {
      const answer = { status: response.status, headers: answerHeaders(response.headers, channel.key), body: errorBytes! };
      const wait = retryAfterMs(response.headers);
      // A rate limit is the upstream's for that model: it rests the model on this channel, for the Retry-After it names.
      const modelFailure = response.status === 429 ? { missing: false, ...(wait !== undefined && { retryAfterMs: wait }) } : undefined;
      directory.record(channel.id, {
        ok: false,
        latencyMs,
        error: `HTTP ${response.status}`,
        model: request.model,
        ...(modelFailure && { modelFailure }),
      });
      note(channel, latencyMs, { status: response.status });
      last = { message: `channel '${channel.name}': HTTP ${response.status}`, answer };
      if (wait !== undefined && wait <= RETRY_AFTER_CAP_MS && turn === undefined && !request.form)
        (again ??= []).push({ channel, notBefore: Date.now() + wait });
      continue;
    }
    // A refused credential is the channel's fault, never the caller's: the next channel is tried, and the caller never sees the upstream's 401.
    if (response.status === 401 || response.status === 403) {
      directory.record(channel.id, { ok: false, latencyMs, error: `HTTP ${response.status}` });
      note(channel, latencyMs, { status: response.status });
      last = { message: `channel '${channel.name}': HTTP ${response.status}`, refusal: keyRefused(channel, response.status) };
      continue;
    }
    // A model the upstream does not know rests on this channel; other answers (a client error included: 400, 404, 413,
    // 422) show the channel works.
    if (modelMissing(response.status, request, errorBytes)) {
      const modelFailure = { missing: true };
      directory.record(channel.id, { ok: false, latencyMs, error: `HTTP 404: model not found`, model: request.model, modelFailure });
    } else {
      directory.record(channel.id, response.ok ? { ok: true, latencyMs, model: request.model } : { ok: true, latencyMs });
    }
    note(channel, latencyMs, { status: response.status }, true);
    if (!response.ok) return buffered(response.status, answerHeaders(response.headers, channel.key), errorBytes!);
    // The caller's model name goes back into the answer only when the channel renamed it (a translator renders it itself).
    const renameTo = channel.upstreamModel !== request.model && !translated ? request.model : undefined;
    return streamed(fetched, kind, hideUsage, renameTo, channel);
  }
  if (last?.answer) return buffered(last.answer.status, last.answer.headers, last.answer.body);
  if (last?.refusal) throw last.refusal;
  throw new GatewayError('upstream_failed', `No channel serving model '${request.model}' answered (${last?.message ?? 'none tried'}).`);
}

/** The caller's error when the upstream refused `channel`'s key (`status` 401 or 403): a 502 naming the channel and where to fix it. */
export function keyRefused(channel: RelayChannel, status: number): ConfigurationError {
  return new ConfigurationError(
    'upstream_failed',
    `Gateway configuration error: channel '${channel.name}' is misconfigured: its key was refused by the upstream (HTTP ${status}); ` +
      `fix it in the Channels page or with \`gatehouse channel update ${channel.name}\`. Your own token was accepted.`,
  );
}

/** Whether an answer is the upstream's "model not found": a 404 naming a model, to a call that names one. */
function modelMissing(status: number, request: PassthroughRequest, body: Uint8Array | undefined): boolean {
  if (status !== 404 || !body || request.operation === 'responses_get' || request.operation === 'responses_delete') return false;
  return /model/i.test(Buffer.from(body).toString('utf8'));
}

/** The refusal of a call whose every channel is cooling down. */
export function allCoolingDown(model: string): GatewayError {
  return new GatewayError('unavailable', `Every channel serving model '${model}' is cooling down after failures; try again shortly.`);
}

/** The operations on a stored response that send no body, and their method. */
const BODILESS: Partial<Record<PassthroughRequest['operation'], 'GET' | 'DELETE' | 'POST'>> = {
  responses_get: 'GET',
  responses_delete: 'DELETE',
  responses_input_items: 'GET',
  responses_cancel: 'POST',
};

/** The method, headers and body of `request` sent on `channel`, and whether the usage event asked for is hidden from the caller. */
function upstreamInit(
  call: CallContext,
  channel: RelayChannel,
  kind: RelayKind,
  request: PassthroughRequest,
): { init: UpstreamInit; hideUsage: boolean } {
  const method = BODILESS[request.operation];
  if (method) {
    return { init: { method, headers: upstreamHeaders(call, channel, kind, null) }, hideUsage: false };
  }
  if (request.form) {
    const headers = upstreamHeaders(call, channel, kind, request.form.contentType);
    return { init: { headers, body: request.form.body(channel.upstreamModel) }, hideUsage: false };
  }
  const { body, hideUsage } = kind.prepare(call.rawBody ?? Buffer.alloc(0), channel, request, call.body);
  return { init: { headers: upstreamHeaders(call, channel, kind), body }, hideUsage };
}

/** A successful answer of `channel` passed on as it arrives, the channel's key scrubbed from it first, its usage read on the way. */
function streamed(
  fetched: Fetched,
  kind: RelayKind,
  hideUsage: boolean,
  renameTo: string | undefined,
  channel: RelayChannel,
): UpstreamReply {
  const { response } = fetched;
  const key = channel.key;
  const headers = answerHeaders(response.headers, key);
  const type = headers['content-type'] ?? '';
  const format = /text\/event-stream/i.test(type) ? 'sse' : /json/i.test(type) ? 'json' : 'other';
  const body = new RelayedBody(response.body, keyScrubber(key), new UsageTap(kind, format, hideUsage, renameTo), fetched);
  return { status: response.status, headers, body, usage: body.usage, channelId: channel.id };
}

/** An answer already read whole (an error), with nothing to bill. */
function buffered(status: number, headers: Record<string, string>, bytes: Uint8Array): UpstreamReply {
  return {
    status,
    headers,
    body: (async function* () {
      if (bytes.length > 0) yield bytes;
    })(),
    usage: Promise.resolve(null),
  };
}

/** The start of an error answer's body (up to ERROR_BODY_LIMIT), then the request is stopped; a key it echoes is replaced by its hint. */
async function errorBody(fetched: Fetched, key: string | null): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  let whole = false;
  try {
    for await (const chunk of fetched.response.body ?? []) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= ERROR_BODY_LIMIT) break;
    }
    whole = size < ERROR_BODY_LIMIT;
  } catch (error) {
    // What arrived is what the caller gets; an upstream out of time is a failed attempt.
    if (error instanceof UpstreamTimeout) throw error;
  } finally {
    fetched.stop();
  }
  return scrubbedHead(Buffer.concat(parts), ERROR_BODY_LIMIT, whole, key);
}

/** The wait a `retry-after-ms` or `retry-after` (seconds or an HTTP date) header asks for, in ms. */
export function retryAfterMs(headers: Pick<HeaderView, 'get' | 'has'>): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Resolves at `time` (now when past); rejects with `callerGone()` when the caller leaves first. */
function waitUntil(time: number, signal: AbortSignal): Promise<void> {
  const delay = time - Date.now();
  if (delay <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(callerGone());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, delay);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

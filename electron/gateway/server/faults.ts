// Faults on demand: the `x-gatehouse-fault` header (or a `-fault-<value>` model suffix) makes a call fail the way real upstreams fail.
import type { OutgoingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, invalid } from '../errors.ts';
import { closeConnection, dropAbandoned } from './call-context.ts';
import { isPortraitUrl, pathOf } from './protocol.ts';
import { paceOfHeaders } from '../protocols/pace.ts';
import { FAULTS, type Fault } from '../../../shared/test-values.ts';
import { testIdOf } from '../../../shared/test-ids.ts';

export { FAULTS, type Fault };

/** Longest a `timeout` fault holds a request. */
const TIMEOUT_HOLD_MS = 10 * 60_000;
/** Longest wait `x-gatehouse-latency-ms` asks for. */
const MAX_LATENCY_MS = 60_000;
/** How long a counted fault remembers the attempts of one request. */
const ATTEMPT_TTL_MS = 10 * 60_000;
/** The wait a 429 asks for: `retry-after-ms: 200` and, rounded up to whole seconds, `Retry-After: 1`. */
const RETRY_AFTER_MS = 200;

interface Requested {
  fault: Fault;
  /** Fail only this many attempts of the same request; undefined: every attempt. */
  times?: number;
}

/**
 * Reads the requested fault: the header `x-gatehouse-fault: 429` / `429*2`, else a model named `…-fault-429` /
 * `…-fault-429x2`. An unknown header value is a 400 (a typo should not pass as a success); a model name whose
 * suffix is no fault (`my-fault-tolerant`) is just a model name.
 */
export function requestedFault(request: FastifyRequest): Requested | undefined {
  const header = request.headers['x-gatehouse-fault'];
  if (typeof header === 'string' && header.trim() !== '') {
    const match = /^\s*([a-z0-9]+)(?:\*(\d+))?\s*$/i.exec(header);
    const requested = match ? asRequested(match) : undefined;
    if (!requested)
      throw invalid(
        `Unknown x-gatehouse-fault '${header.trim()}': use one of ${FAULTS.join(', ')}, optionally with *N (fail N attempts).`,
        'x-gatehouse-fault',
      );
    return requested;
  }
  const model = modelOf(request);
  const match = model ? /-fault-([a-z0-9]+?)(?:x(\d+))?$/i.exec(model) : null;
  return match ? asRequested(match) : undefined;
}

function asRequested(match: RegExpExecArray): Requested | undefined {
  const fault = match[1]!.toLowerCase() as Fault;
  if (!FAULTS.includes(fault)) return undefined;
  return { fault, ...(match[2] !== undefined && { times: Number(match[2]) }) };
}

/** The stream fault the SSE writer must apply, if this request asked for one and its attempt is still to fail. */
export function streamFaultOf(request: FastifyRequest): 'disconnect' | 'malformed' | undefined {
  const state = (request as FastifyRequest & { gatehouseFault?: Fault }).gatehouseFault;
  return state === 'disconnect' || state === 'malformed' ? state : undefined;
}

/** Streaming pace from `x-gatehouse-pace` (tokens per second), when given. */
export function paceOf(request: FastifyRequest): number | undefined {
  return paceOfHeaders(request.headers);
}

/**
 * The fault and latency `preHandler` step for every gateway route except the portrait library, public and admin
 * routes: undefined when the request goes on at once (no latency asked for, no fault to apply, as for most calls),
 * else the promise of the wait and the fault.
 */
export function faultStep(
  app: FastifyInstance,
  attempts: FaultCounters,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | undefined {
  const held = new Set<() => void>();
  // preClose, not onClose: the server waits for open connections before onClose hooks run, so held calls must go first.
  app.addHook('preClose', async () => {
    for (const release of held) release();
  });
  return (request, reply) => {
    // Only an authenticated caller's call: a public route and a socket route left to refuse its caller itself
    // (config.socketAuth) have no principal, and an unknown path is refused before this step. (Read from the principal,
    // not from `request.routeOptions`, which Fastify builds anew on every read.)
    if (!request.principal) return undefined;
    const path = pathOf(request);
    if (isPortraitUrl(path) || path.startsWith('/admin')) return undefined;
    const latency = Number(request.headers['x-gatehouse-latency-ms']);
    const wait = Number.isFinite(latency) && latency > 0 ? Math.min(latency, MAX_LATENCY_MS) : 0;
    if (wait > 0) return applyFault(held, attempts, request, reply, wait);
    // The fault is read now, as the wait's absence allows: an unknown fault header is refused at once.
    const requested = requestedFault(request);
    return requested === undefined ? undefined : applyFault(held, attempts, request, reply, 0, requested);
  };
}

/** Waits the asked latency (`wait` ms), then applies the request's fault (`read` when read already), if its attempt is still to fail. */
async function applyFault(
  held: Set<() => void>,
  attempts: FaultCounters,
  request: FastifyRequest,
  reply: FastifyReply,
  wait: number,
  read?: Requested,
): Promise<unknown> {
  if (wait > 0) {
    await hold(held, wait, request.clientSignal);
    // The client left while it waited: nothing more is done for it (no provider, no upstream, no charge).
    if (request.clientSignal?.aborted) return dropAbandoned(reply);
  }
  const requested = read ?? requestedFault(request);
  if (!requested || !attempts.fails(request, requested)) return undefined;
  (request as FastifyRequest & { gatehouseFault?: Fault }).gatehouseFault = requested.fault;
  switch (requested.fault) {
    case '429':
      reply.header('retry-after', String(Math.ceil(RETRY_AFTER_MS / 1000))).header('retry-after-ms', String(RETRY_AFTER_MS));
      throw new GatewayError('rate_limited', 'Rate limit reached (simulated by x-gatehouse-fault: 429)');
    case '500':
      throw new GatewayError('internal', 'The server had an error while processing your request (simulated fault 500)');
    case '503':
      throw new GatewayError('unavailable', 'The service is temporarily unavailable (simulated fault 503)');
    case '529':
      throw new GatewayError('overloaded', 'Overloaded (simulated fault 529)');
    case 'timeout':
      await hold(held, TIMEOUT_HOLD_MS, request.clientSignal);
      closeConnection(request);
      return reply;
    case 'disconnect':
    case 'malformed':
      if (isStreaming(request)) return undefined; // the SSE writer cuts or breaks the stream after a few frames
      if (requested.fault === 'disconnect') {
        closeConnection(request);
        return reply;
      }
      reply.hijack();
      reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'application/json' });
      reply.raw.end('{"id": "broken", "object": ');
      return reply;
  }
  return undefined;
}

/** Waits `ms`, or less: until the client goes away (`signal`) or the gateway stops (each wait is in `held` meanwhile). */
function hold(held: Set<() => void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const release = () => {
      clearTimeout(timer);
      held.delete(release);
      signal?.removeEventListener('abort', release);
      resolve();
    };
    const timer = setTimeout(release, ms);
    held.add(release);
    if (signal?.aborted) release();
    else signal?.addEventListener('abort', release, { once: true });
  });
}

/** Most test ids whose fault counters are kept at once; past it the oldest test id's counters are forgotten (they start over). */
export const MAX_FAULT_SCOPES = 10_000;

/**
 * The attempts of counted faults (`x-gatehouse-fault: 429*2`), per test id (`x-gatehouse-test-id`; calls naming none
 * share one scope), so two tests running at once never share a counter; the testing API's reset clears them.
 */
export class FaultCounters {
  private readonly scopes = new Map<string, Map<string, { count: number; expires: number }>>();

  /** Counts this attempt; true when it is still one of the attempts that must fail. */
  fails(request: FastifyRequest, requested: Requested): boolean {
    if (requested.times === undefined) return true;
    const now = Date.now();
    const testId = testIdOf(request.headers) ?? '';
    for (const [scopeId, scope] of this.scopes) {
      for (const [key, entry] of scope) if (entry.expires < now) scope.delete(key);
      if (scope.size === 0) this.scopes.delete(scopeId);
    }
    let scope = this.scopes.get(testId);
    if (!scope) {
      if (this.scopes.size >= MAX_FAULT_SCOPES) this.scopes.delete(this.scopes.keys().next().value!);
      this.scopes.set(testId, (scope = new Map()));
    }
    // "The same request": same token (whatever header carried it), method, URL with query, body and fault header.
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          request.principal.tokenId,
          request.method,
          request.url,
          request.body ?? null,
          request.headers['x-gatehouse-fault'] ?? '',
        ]),
      )
      .digest('hex');
    const entry = scope.get(key) ?? { count: 0, expires: now + ATTEMPT_TTL_MS };
    entry.count += 1;
    scope.set(key, entry);
    return entry.count <= requested.times;
  }

  /** Forgets the counters of every test id, or of one (`''`: the calls that named none); answers how many requests were forgotten. */
  reset(testId?: string): number {
    if (testId !== undefined) {
      const removed = this.scopes.get(testId)?.size ?? 0;
      this.scopes.delete(testId);
      return removed;
    }
    let removed = 0;
    for (const scope of this.scopes.values()) removed += scope.size;
    this.scopes.clear();
    return removed;
  }
}

/** The model a call names: a JSON body's `model`, a Gemini path `/models/{model}:method`, or a `?model=` query (realtime). */
function modelOf(request: FastifyRequest): string | undefined {
  const body = request.body as { model?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.model === 'string') return body.model;
  const fromPath = /\/models\/([^/:]+):/.exec(pathOf(request))?.[1];
  if (fromPath !== undefined) return fromPath;
  const query = (request.query as Record<string, unknown> | undefined)?.['model'];
  return typeof query === 'string' ? query : undefined;
}

function isStreaming(request: FastifyRequest): boolean {
  const body = request.body as { stream?: unknown } | undefined;
  return (body !== null && typeof body === 'object' && body.stream === true) || pathOf(request).includes(':streamGenerateContent');
}

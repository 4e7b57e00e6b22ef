// The load generator: a closed loop of `concurrency` workers, each on a keep-alive connection of its own (the lean client's, or an undici Pool's), timing each request to its first and last body byte.
import { Pool } from 'undici';
import { LeanConnection, leanRequest, type LeanAnswer } from './lean-load.ts';
import { quantile } from './stats.ts';

/** One kind of request a bench sends. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** The path, or a function of the request's sequence number (e.g. to walk pages). */
  path: string | ((sequence: number) => string);
  headers?: Record<string, string>;
  /** A JSON body (sent as is when a string). */
  body?: unknown;
}

/** What one load run measured. */
export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  /** Milliseconds, request sent to the last body byte. */
  p50: number;
  p99: number;
  /** Milliseconds to the first body byte (the first streamed event for SSE). */
  ttfb50: number;
}

/** Keep-alive undici pools by origin and size, so rounds reuse warm connections like a real client would. */
const pools = new Map<string, Pool>();

function poolFor(origin: string, connections: number): Pool {
  const key = `${origin} ${connections}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    pools.set(key, pool);
  }
  return pool;
}

/** Lean connections by origin and count, kept between rounds as the pools are; a set is lent to one run at a time. */
const leanSets = new Map<string, { connections: LeanConnection[]; lent: boolean }>();

/** The kept set of `count` lean connections to `origin`, or a set of its own (closed after the run) when another run has it. */
function borrowLeanSet(origin: string, count: number): { connections: LeanConnection[]; giveBack: () => void } {
  const key = `${origin} ${count}`;
  const make = () => Array.from({ length: count }, () => new LeanConnection(new URL(origin)));
  let set = leanSets.get(key);
  if (!set) {
    set = { connections: make(), lent: false };
    leanSets.set(key, set);
  }
  if (set.lent) {
    const own = make();
    return { connections: own, giveBack: () => own.forEach((connection) => connection.close()) };
  }
  const kept = set;
  kept.lent = true;
  return { connections: kept.connections, giveBack: () => (kept.lent = false) };
}

/** Closes every kept connection of both clients (at the end of a bench, or before a contender stops). */
export async function closeClients(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  for (const set of leanSets.values()) for (const connection of set.connections) connection.close();
  leanSets.clear();
  await Promise.all(all.map((pool) => pool.close().catch(() => undefined)));
}

/**
 * The load's client, `BENCH_CLIENT`: `lean` (the default: one raw keep-alive socket per worker, `lean-load.ts`) or
 * `undici` (one undici Pool, each body read as a stream, as the bench did before 2026-11-27's round 12: 1.2–1.7 times
 * the client's CPU per call, which the servers measured share the machine's cores with).
 */
export function loadClient(): 'lean' | 'undici' {
  const client = process.env['BENCH_CLIENT'] ?? 'lean';
  if (client !== 'lean' && client !== 'undici') throw new Error(`BENCH_CLIENT must be lean or undici, not ${client}`);
  return client;
}

/** One exchange as a worker sees it, whichever client sends it: the final status and when the first body byte came (NaN: none). */
type Send = (path: string) => Promise<LeanAnswer>;

/** The workers' senders for `spec` over `concurrency` connections of the chosen client, and what to do once the run ends. */
function sendersFor(origin: string, spec: RequestSpec, concurrency: number): { senders: Send[]; done: () => void } {
  const body = spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  const headers = { ...(body !== undefined && { 'content-type': 'application/json' }), ...spec.headers };
  if (loadClient() === 'undici') {
    const pool = poolFor(origin, concurrency);
    const send: Send = async (path) => {
      const response = await pool.request({ origin, path, method: spec.method, headers, body });
      let firstByteAt = Number.NaN;
      for await (const chunk of response.body) {
        if (Number.isNaN(firstByteAt) && (chunk as Buffer).length > 0) firstByteAt = performance.now();
      }
      return { status: response.statusCode, firstByteAt };
    };
    return { senders: Array.from({ length: concurrency }, () => send), done: () => undefined };
  }
  const url = new URL(origin);
  // A fixed path's request bytes are made once; a path that changes per request, per request. Either way they are made
  // here once first, so headers the client refuses throw out of runLoad rather than fail every exchange in a loop.
  const first = leanRequest(url, spec.method, typeof spec.path === 'string' ? spec.path : '/', headers, body);
  const fixed = typeof spec.path === 'string' ? first : undefined;
  const { connections, giveBack } = borrowLeanSet(origin, concurrency);
  const senders = connections.map<Send>(
    (connection) => (path) => connection.exchange(fixed ?? leanRequest(url, spec.method, path, headers, body)),
  );
  return { senders, done: giveBack };
}

/** Sends `spec` to `origin` from `concurrency` workers for `durationMs`; an answer outside 2xx, or a failed exchange, counts as an error. */
export async function runLoad(origin: string, spec: RequestSpec, concurrency: number, durationMs: number): Promise<LoadResult> {
  const { senders, done } = sendersFor(origin, spec, concurrency);
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  let sequence = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async (send: Send) => {
    while (performance.now() < deadline) {
      const path = typeof spec.path === 'string' ? spec.path : spec.path(sequence++);
      const sent = performance.now();
      try {
        const { status, firstByteAt } = await send(path);
        if (!(status >= 200 && status < 300)) errors += 1;
        else {
          const ended = performance.now();
          latencies.push(ended - sent);
          firstBytes.push((Number.isNaN(firstByteAt) ? ended : firstByteAt) - sent);
        }
      } catch {
        errors += 1;
      }
    }
  };
  try {
    await Promise.all(senders.map(worker));
  } finally {
    done();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    ttfb50: quantile(firstBytes, 0.5),
  };
}

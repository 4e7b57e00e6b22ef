// The load generator: a closed loop of `concurrency` workers, each on a keep-alive connection of its own (lean sockets, or an undici Pool's), timing each request and its first body byte.
import { Pool } from 'undici';
import { LeanConnection, leanRequest, type LeanRequest } from './lean-load.ts';
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

/** Keep-alive pools by origin and size, so rounds reuse warm connections like a real client would. */
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

/** Closes every pool (at the end of a bench, or before a contender stops). */
export async function closePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  for (const set of leanSets.values()) for (const connection of set) connection.close();
  leanSets.clear();
  await Promise.all(all.map((pool) => pool.close().catch(() => undefined)));
}

/** Lean connections by origin and count, kept between rounds as the pools are. */
const leanSets = new Map<string, LeanConnection[]>();

function leanSetFor(origin: string, connections: number): LeanConnection[] {
  const key = `${origin} ${connections}`;
  let set = leanSets.get(key);
  if (!set) {
    const url = new URL(origin);
    set = Array.from({ length: connections }, () => new LeanConnection(url));
    leanSets.set(key, set);
  }
  return set;
}

/**
 * The load's client, `BENCH_CLIENT`: `lean` (the default: raw keep-alive sockets, `lean-load.ts`) or `undici` (an undici
 * Pool reading each body as a stream, as the bench did before 2026-11-27's round 12: about twice the client's CPU per
 * call, which the servers measured share the machine's cores with).
 */
export function loadClient(): 'lean' | 'undici' {
  const client = process.env['BENCH_CLIENT'] ?? 'lean';
  if (client !== 'lean' && client !== 'undici') throw new Error(`BENCH_CLIENT must be lean or undici, not ${client}`);
  return client;
}

/** Sends `spec` to `origin` from `concurrency` workers for `durationMs`; a non-2xx answer counts as an error. */
export async function runLoad(origin: string, spec: RequestSpec, concurrency: number, durationMs: number): Promise<LoadResult> {
  return loadClient() === 'lean' ? runLeanLoad(origin, spec, concurrency, durationMs) : runUndiciLoad(origin, spec, concurrency, durationMs);
}

async function runLeanLoad(origin: string, spec: RequestSpec, concurrency: number, durationMs: number): Promise<LoadResult> {
  const connections = leanSetFor(origin, concurrency);
  const url = new URL(origin);
  const body = spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  const headers = { ...(body !== undefined && { 'content-type': 'application/json' }), ...spec.headers };
  const fixed = typeof spec.path === 'string' ? leanRequest(url, spec.method, spec.path, headers, body) : undefined;
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  let sequence = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async (connection: LeanConnection) => {
    while (performance.now() < deadline) {
      const request: LeanRequest = fixed ?? leanRequest(url, spec.method, (spec.path as (n: number) => string)(sequence++), headers, body);
      const sent = performance.now();
      try {
        const answer = await connection.exchange(request);
        if (answer.status >= 300 || answer.status < 200) errors += 1;
        else {
          const done = performance.now();
          latencies.push(done - sent);
          firstBytes.push((Number.isNaN(answer.firstByteAt) ? done : answer.firstByteAt) - sent);
        }
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(connections.map(worker));
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

async function runUndiciLoad(origin: string, spec: RequestSpec, concurrency: number, durationMs: number): Promise<LoadResult> {
  const pool = poolFor(origin, concurrency);
  const body = spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  const headers = { ...(body !== undefined && { 'content-type': 'application/json' }), ...spec.headers };
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  let sequence = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const path = typeof spec.path === 'string' ? spec.path : spec.path(sequence++);
      const sent = performance.now();
      let first = Number.NaN;
      try {
        const response = await pool.request({ origin, path, method: spec.method, headers, body });
        for await (const chunk of response.body) {
          if (Number.isNaN(first) && (chunk as Buffer).length > 0) first = performance.now();
        }
        if (response.statusCode >= 300) errors += 1;
        else {
          const done = performance.now();
          latencies.push(done - sent);
          firstBytes.push((Number.isNaN(first) ? done : first) - sent);
        }
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
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

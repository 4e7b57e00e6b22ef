// Counts each finished API call of a known token (its model, status and duration) in the usage dashboard's per-day totals.
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { UsageStatsService } from '../services/usage-stats.ts';
import type { Clock } from '../time.ts';
import { isJournaledPath, modelOf } from './journal-capture.ts';
import { pathOf } from './protocol.ts';
import type { SyncStep } from './sync-hook.ts';
import { isUpgrade } from './socket-scope.ts';

/** What the counting hook needs from the gateway. */
export interface CallCountingOptions {
  clock: Clock;
  stats: Pick<UsageStatsService, 'count'>;
  /** The account and token ids of the token a call named (accepted or refused), or null when it named none of this gateway's. */
  holderOf: (request: FastifyRequest) => { accountId: number; tokenId: string } | null;
  /** Told of a failure to count (the call and the process are unaffected). */
  onError: (error: unknown) => void;
}

/** A counted call's facts, kept on its response until it closes. */
interface Counted {
  request: FastifyRequest;
  path: string;
  at: number;
  startedAt: number;
}

/** Where a counted call's facts wait on its raw response for its `close`. */
const COUNTED = Symbol('gatehouse.counted');

/**
 * The counting `onRequest` step. Calls naming no token of this gateway are not counted (any web page can send those), so the
 * totals grow with the owner's tokens' calls only. A failure to count loses that count, never the call.
 */
export function callCountingStep({ clock, stats, holderOf, onError }: CallCountingOptions): SyncStep {
  // One listener for every call (the response is `this`), its facts on the response: no closures made per call.
  function counted(this: ServerResponse & { [COUNTED]?: Counted }): void {
    const call = this[COUNTED];
    if (call === undefined) return;
    try {
      const holder = holderOf(call.request);
      if (holder === null) return;
      stats.count({
        at: call.at,
        accountId: holder.accountId,
        tokenId: holder.tokenId,
        model: modelOf(call.path, call.request.body),
        status: this.statusCode,
        durationMs: performance.now() - call.startedAt,
      });
    } catch (error) {
      try {
        onError(error);
      } catch {
        // The report itself failed: the count is lost, never the process.
      }
    }
  }
  return (request, reply) => {
    const path = pathOf(request);
    if (!isJournaledPath(path) || isUpgrade(request) || request.method === 'OPTIONS') return;
    const startedAt = performance.now();
    const raw = reply.raw as ServerResponse & { [COUNTED]?: Counted };
    raw[COUNTED] = { request, path, at: clock.now(), startedAt };
    // `on`, not `once`: a response closes once, and `once` costs a wrapper per call.
    raw.on('close', counted);
  };
}

// Counts each finished API call of a known token (its model, status and duration) in the usage dashboard's per-day totals.
import type { FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import { guarded } from '../safe-events.ts';
import type { UsageStatsService } from '../services/usage-stats.ts';
import type { Clock } from '../time.ts';
import { isJournaledPath, modelOf } from './journal-capture.ts';
import { pathOf } from './protocol.ts';
import type { SyncStep } from './sync-hook.ts';

/** What the counting hook needs from the gateway. */
export interface CallCountingOptions {
  clock: Clock;
  stats: Pick<UsageStatsService, 'count'>;
  /** The account and token ids of the token a call named (accepted or refused), or null when it named none of this gateway's. */
  holderOf: (request: FastifyRequest) => { accountId: number; tokenId: string } | null;
  /** Told of a failure to count (the call and the process are unaffected). */
  onError: (error: unknown) => void;
}

/**
 * The counting `onRequest` step. Calls naming no token of this gateway are not counted (any web page can send those), so the
 * totals grow with the owner's tokens' calls only. A failure to count loses that count, never the call.
 */
export function callCountingStep({ clock, stats, holderOf, onError }: CallCountingOptions): SyncStep {
  return (request, reply) => {
    const path = pathOf(request);
    if (!isJournaledPath(path) || request.ws || request.method === 'OPTIONS') return;
    const startedAt = performance.now();
    const at = clock.now();
    // `on`, not `once`: a response closes once, and `once` costs a wrapper per call.
    reply.raw.on(
      'close',
      guarded(onError, () => {
        const holder = holderOf(request);
        if (holder === null) return;
        stats.count({
          at,
          accountId: holder.accountId,
          tokenId: holder.tokenId,
          model: modelOf(path, request.body),
          status: reply.raw.statusCode,
          durationMs: performance.now() - startedAt,
        });
      }),
    );
  };
}

// Counts each finished API call of a known token (its model, status and duration) in the usage dashboard's per-day totals.
import type { FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import type { UsageStatsService } from '../services/usage-stats.ts';
import { modelOf, type CallCounter } from './journal-capture.ts';

/** What the count needs from the gateway. */
export interface CallCountingOptions {
  stats: Pick<UsageStatsService, 'count'>;
  /** The account and token ids of the token a call named (accepted or refused), or null when it named none of this gateway's. */
  holderOf: (request: FastifyRequest) => { accountId: number; tokenId: string } | null;
  /** Told of a failure to count (the call and the process are unaffected). */
  onError: (error: unknown) => void;
}

/**
 * The count of each finished API call, run by the call capture's one close listener (journal-capture.ts, which decides
 * which calls are API calls). Calls naming no token of this gateway are not counted (any web page can send those), so the
 * totals grow with the owner's tokens' calls only. A failure to count loses that count, never the call.
 */
export function callCounter({ stats, holderOf, onError }: CallCountingOptions): CallCounter {
  return (request, raw, path, at, startedAt) => {
    try {
      const holder = holderOf(request);
      if (holder === null) return;
      stats.count({
        at,
        accountId: holder.accountId,
        tokenId: holder.tokenId,
        model: modelOf(path, request.body),
        status: raw.statusCode,
        durationMs: performance.now() - startedAt,
      });
    } catch (error) {
      try {
        onError(error);
      } catch {
        // The report itself failed: the count is lost, never the process.
      }
    }
  };
}

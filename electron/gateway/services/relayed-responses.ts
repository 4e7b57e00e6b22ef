// Remembers which relay channel stored which Responses API id, per account, so retrieve, delete and previous_response_id go back to it.
import type { Clock } from '../time.ts';
import type { RelayedResponsesRepo } from '../storage/relayed-responses-repo.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';
import { responseNotFound } from './stored-responses.ts';

/** Where a relayed response lives: its channel and the model it was created for. */
export interface RelayedResponse {
  channelId: string;
  model: string;
}

export class RelayedResponses {
  private readonly repo: RelayedResponsesRepo;
  private readonly clock: Clock;
  private readonly limits: Pick<StorageLimits, 'storedMaxAgeMs' | 'pruneBatch'>;
  constructor(repo: RelayedResponsesRepo, clock: Clock, limits: Pick<StorageLimits, 'storedMaxAgeMs' | 'pruneBatch'> = STORAGE_LIMITS) {
    this.repo = repo;
    this.clock = clock;
    this.limits = limits;
  }

  /**
   * Records that `channelId` stored `responseId` for the account (created for `model`). Entries older than a stored
   * response lives (as upstreams keep theirs) are dropped a bounded batch at a time, so the index cannot grow forever.
   */
  remember(accountId: number, responseId: string, where: RelayedResponse): void {
    this.repo.deleteOlderThan(this.clock.now() - this.limits.storedMaxAgeMs, this.limits.pruneBatch);
    this.repo.put({
      account_id: accountId,
      response_id: responseId,
      channel_id: where.channelId,
      model: where.model,
      created_at: this.clock.now(),
    });
  }

  /** The channel of one of the account's relayed responses; undefined for an id the gateway stored itself, or another account's. */
  find(accountId: number, responseId: string): RelayedResponse | undefined {
    const row = this.repo.find(accountId, responseId);
    return row && { channelId: row.channel_id, model: row.model };
  }

  /**
   * Where a relayed follow-up (`previous_response_id`) must go. An id the account's relayed calls did not create (unknown,
   * expired, stored by the gateway itself, or another account's, whose key the channel shares) is refused with the same 404
   * as an unknown previous response, before anything is sent upstream.
   */
  followUp(accountId: number, previousId: string): RelayedResponse {
    const where = this.find(accountId, previousId);
    if (!where) throw responseNotFound(previousId, 'previous_response_id', 'Previous response');
    return where;
  }

  forget(accountId: number, responseId: string): void {
    this.repo.delete(accountId, responseId);
  }
}

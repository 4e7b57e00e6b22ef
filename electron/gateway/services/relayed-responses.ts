// Remembers which relay channel stored which Responses API id, per account, so retrieve, delete and previous_response_id go back to it.
import type { Clock } from '../time.ts';
import type { RelayedResponsesRepo } from '../storage/relayed-responses-repo.ts';

/** Where a relayed response lives: its channel and the model it was created for. */
export interface RelayedResponse {
  channelId: string;
  model: string;
}

export class RelayedResponses {
  private readonly repo: RelayedResponsesRepo;
  private readonly clock: Clock;
  constructor(repo: RelayedResponsesRepo, clock: Clock) {
    this.repo = repo;
    this.clock = clock;
  }

  /** Records that `channelId` stored `responseId` for the account (created for `model`). */
  remember(accountId: number, responseId: string, where: RelayedResponse): void {
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

  forget(accountId: number, responseId: string): void {
    this.repo.delete(accountId, responseId);
  }
}

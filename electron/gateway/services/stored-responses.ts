// Stored Responses API responses: the conversation a `previous_response_id` continues, and retrieval per account.
import { notFound } from './errors.ts';
import type { ResponsesRepo } from '../storage/responses-repo.ts';
import type { Clock } from '../time.ts';

/** A conversation item or Response object, as JSON. */
type Json = Record<string, unknown>;

export class StoredResponses {
  private readonly repo: ResponsesRepo;
  private readonly clock: Clock;
  constructor(repo: ResponsesRepo, clock: Clock) {
    this.repo = repo;
    this.clock = clock;
  }

  /**
   * The items a response continuing `previousId` starts from: that response's own context followed by its output.
   * Another account's response is not found (404), like an unknown id.
   */
  conversationAfter(accountId: number, previousId: string): Json[] {
    const row = this.repo.find(accountId, previousId);
    if (!row) throw notFound(`Previous response with id '${previousId}' not found.`, 'previous_response_id');
    const response = JSON.parse(row.response_json) as Json;
    return [...(JSON.parse(row.context_json) as Json[]), ...((response['output'] as Json[] | undefined) ?? [])];
  }

  /** Keeps a response and the items it answered. */
  save(accountId: number, context: Json[], response: Json): void {
    this.repo.insert({
      response_id: String(response['id']),
      account_id: accountId,
      context_json: JSON.stringify(context),
      response_json: JSON.stringify(response),
      created_at: this.clock.now(),
    });
  }

  get(accountId: number, responseId: string): Json {
    const row = this.repo.find(accountId, responseId);
    if (!row) throw notFound(`Response with id '${responseId}' not found.`);
    return JSON.parse(row.response_json) as Json;
  }

  delete(accountId: number, responseId: string): void {
    if (!this.repo.delete(accountId, responseId)) throw notFound(`Response with id '${responseId}' not found.`);
  }
}

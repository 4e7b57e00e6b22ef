// Stored Responses API responses: the conversation a `previous_response_id` continues, and retrieval per account, within the storage limits.
import { invalid, notFound } from '../errors.ts';
import type { ResponsesRepo } from '../storage/responses-repo.ts';
import type { Db } from '../storage/database.ts';
import type { Clock } from '../time.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';

/** A conversation item or Response object, as JSON. */
type Json = Record<string, unknown>;

export class StoredResponses {
  private readonly repo: ResponsesRepo;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly limits: StorageLimits;
  constructor(repo: ResponsesRepo, db: Db, clock: Clock, limits: StorageLimits = STORAGE_LIMITS) {
    this.repo = repo;
    this.db = db;
    this.clock = clock;
    this.limits = limits;
  }

  /**
   * The items a response continuing `previousId` starts from: that response's own context followed by its output.
   * Another account's response is not found (404), like an unknown or expired id.
   */
  conversationAfter(accountId: number, previousId: string): Json[] {
    const row = this.repo.find(accountId, previousId, this.notBefore());
    if (!row) throw notFound(`Previous response with id '${previousId}' not found.`, 'previous_response_id');
    const response = JSON.parse(row.response_json) as Json;
    return [...(JSON.parse(row.context_json) as Json[]), ...((response['output'] as Json[] | undefined) ?? [])];
  }

  /** The stored form of a response; a 400 (param `store`) when it is larger than one stored response may be. Call before any charge. */
  prepare(context: Json[], response: Json): { contextJson: string; responseJson: string; bytes: number } {
    const contextJson = JSON.stringify(context);
    const responseJson = JSON.stringify(response);
    const bytes = Buffer.byteLength(contextJson) + Buffer.byteLength(responseJson);
    const max = this.limits.storedResponseBytes;
    if (bytes > max) {
      throw invalid(
        `The response is too large to store: its conversation and output take ${bytes} bytes, at most ${max} bytes per stored response. Send it with store: false, or start a new conversation.`,
        'store',
      );
    }
    return { contextJson, responseJson, bytes };
  }

  /**
   * Keeps a response and the items it answered. Expired responses go first (a bounded batch); then, while the
   * account's stored bytes exceed its quota, its oldest responses are evicted.
   */
  save(accountId: number, responseId: string, stored: { contextJson: string; responseJson: string; bytes: number }): void {
    const now = this.clock.now();
    this.db.transaction(() => {
      this.repo.deleteExpired(this.notBefore(), this.limits.pruneBatch);
      this.repo.insert({
        response_id: responseId,
        account_id: accountId,
        context_json: stored.contextJson,
        response_json: stored.responseJson,
        created_at: now,
        bytes: stored.bytes,
      });
      let over = this.repo.accountBytes(accountId) - this.limits.storedAccountBytes;
      while (over > 0) {
        const rows = this.repo.oldest(accountId, responseId, 100);
        if (rows.length === 0) break;
        const evicted = [];
        for (const row of rows) {
          if (over <= 0) break;
          evicted.push(row.id);
          over -= row.bytes;
        }
        this.repo.deleteRows(evicted);
      }
    })();
  }

  get(accountId: number, responseId: string): Json {
    const row = this.repo.find(accountId, responseId, this.notBefore());
    if (!row) throw notFound(`Response with id '${responseId}' not found.`);
    return JSON.parse(row.response_json) as Json;
  }

  delete(accountId: number, responseId: string): void {
    if (!this.repo.delete(accountId, responseId)) throw notFound(`Response with id '${responseId}' not found.`);
  }

  /** Responses created before this time have expired. */
  private notBefore(): number {
    return this.clock.now() - this.limits.storedMaxAgeMs;
  }
}

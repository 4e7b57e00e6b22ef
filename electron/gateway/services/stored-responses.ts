// Stored Responses API responses: the conversation a `previous_response_id` continues, retrieval and input items per account, and background responses (queued, in progress, done or cancelled on the clock), within the storage limits.
import { GatewayError, invalid, notFound } from '../errors.ts';
import type { ResponsesRepo, StoredResponseRow } from '../storage/responses-repo.ts';
import type { Db } from '../storage/database.ts';
import type { Clock } from '../time.ts';
import { evictOverQuota } from './bounded-store.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';

/** A conversation item or Response object, as JSON. */
type Json = Record<string, unknown>;

/** How long a background response stays `queued`, then `in_progress`, by the gateway's clock (documented in docs/endpoints.md). */
export const BACKGROUND_TIMING = { queuedMs: 500, inProgressMs: 2000 } as const;

/** A response ready to store: its JSON texts, size, and where its own input starts in the context. */
export interface PreparedResponse {
  contextJson: string;
  responseJson: string;
  bytes: number;
  inputFrom: number;
}

/** The 404 of a response id the account cannot see (unknown, expired or another account's): the same words whichever it is. */
export function responseNotFound(responseId: string, param: string | null = null, what = 'Response'): GatewayError {
  return new GatewayError('not_found', `${what} with id '${responseId}' not found.`, param);
}

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
   * Another account's response is not found (404), like an unknown or expired id; a background response not done yet is a 400.
   */
  conversationAfter(accountId: number, previousId: string): Json[] {
    const row = this.find(accountId, previousId, 'previous_response_id', 'Previous response');
    if (this.pending(row)) {
      throw invalid(`Previous response with id '${previousId}' is still in progress; wait until it is completed.`, 'previous_response_id');
    }
    const response = JSON.parse(row.response_json) as Json;
    return [...(JSON.parse(row.context_json) as Json[]), ...((response['output'] as Json[] | undefined) ?? [])];
  }

  /**
   * The stored form of a response whose context's first `inputFrom` items came from earlier responses; a 400 (param `store`)
   * when it is larger than one stored response may be. Call before any charge.
   */
  prepare(context: Json[], response: Json, inputFrom = 0): PreparedResponse {
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
    return { contextJson, responseJson, bytes, inputFrom };
  }

  /**
   * Keeps a response and the items it answered; `background` keeps a finished response that callers see queued, then in
   * progress, until BACKGROUND_TIMING has passed. Expired responses go first (a bounded batch); then, while the account's
   * stored bytes exceed its quota, its oldest responses are evicted.
   */
  save(accountId: number, responseId: string, stored: PreparedResponse, options: { background?: boolean } = {}): void {
    const now = this.clock.now();
    this.db
      .transaction(() => {
        this.repo.deleteExpired(this.notBefore(), this.limits.pruneBatch);
        this.repo.insert({
          response_id: responseId,
          account_id: accountId,
          context_json: stored.contextJson,
          response_json: stored.responseJson,
          created_at: now,
          bytes: stored.bytes,
          input_from: stored.inputFrom,
          ready_at: options.background ? now + BACKGROUND_TIMING.queuedMs + BACKGROUND_TIMING.inProgressMs : null,
        });
        evictOverQuota(this.repo.sized, accountId, responseId, this.limits.storedAccountBytes);
      })
      .immediate();
  }

  /** The Response as the caller sees it now (a background one not done yet: queued or in progress, without output or usage). */
  get(accountId: number, responseId: string): Json {
    return this.visible(this.find(accountId, responseId));
  }

  /** The response's own input items (not those of earlier responses it continues), each with an id. */
  inputItems(accountId: number, responseId: string): Json[] {
    const row = this.find(accountId, responseId);
    const context = JSON.parse(row.context_json) as Json[];
    return context.slice(row.input_from).map((item, index) => withItemId(item, responseId, index));
  }

  /**
   * Cancels a background response that is not done yet (it ends `cancelled`, without output); a finished or already
   * cancelled one is returned as it is. A response not created in the background is a 400.
   */
  cancel(accountId: number, responseId: string): Json {
    const row = this.find(accountId, responseId);
    const response = JSON.parse(row.response_json) as Json;
    if (response['background'] !== true) throw invalid('Only responses created with background: true can be cancelled.', 'response_id');
    if (!this.pending(row)) return response;
    const cancelled = { ...response, status: 'cancelled', output: [], usage: null, incomplete_details: null };
    this.repo.update(accountId, responseId, JSON.stringify(cancelled), null);
    return cancelled;
  }

  delete(accountId: number, responseId: string): void {
    if (!this.repo.delete(accountId, responseId)) throw notFound(`Response with id '${responseId}' not found.`);
  }

  private find(accountId: number, responseId: string, param: string | null = null, what = 'Response'): StoredResponseRow {
    const row = this.repo.find(accountId, responseId, this.notBefore());
    if (!row) throw responseNotFound(responseId, param, what);
    return row;
  }

  private pending(row: StoredResponseRow): boolean {
    return row.ready_at !== null && this.clock.now() < row.ready_at;
  }

  private visible(row: StoredResponseRow): Json {
    const response = JSON.parse(row.response_json) as Json;
    if (!this.pending(row)) return response;
    const status = this.clock.now() < row.created_at + BACKGROUND_TIMING.queuedMs ? 'queued' : 'in_progress';
    return { ...response, status, output: [], usage: null, incomplete_details: null };
  }

  /** Responses created before this time have expired. */
  private notBefore(): number {
    return this.clock.now() - this.limits.storedMaxAgeMs;
  }
}

/** An input item as listed: its own id when it has one, else one made from the response id and its position; a message's text content as a list of parts. */
function withItemId(item: Json, responseId: string, index: number): Json {
  const listed = item['type'] === 'message' ? { ...item, content: partsOf(item), status: 'completed' } : item;
  if (typeof item['id'] === 'string') return listed;
  return { id: `${item['type'] === 'message' ? 'msg' : 'item'}_${responseId.replace(/^resp_/, '')}${index}`, ...listed };
}

/** A message's content as parts: a string becomes one text part (output text for the assistant). */
export function partsOf(message: Json): unknown {
  const content = message['content'];
  if (typeof content !== 'string') return content;
  return [{ type: message['role'] === 'assistant' ? 'output_text' : 'input_text', text: content }];
}

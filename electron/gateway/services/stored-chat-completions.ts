// Stored chat completions (`store: true`) per account: kept with their request's messages and metadata, listed, updated and deleted, within the storage limits.
import { invalid, notFound } from '../errors.ts';
import { collectChat, type ChatDelta } from '../protocols/neutral/deltas.ts';
import type { ChatResult } from '../protocols/neutral/chat.ts';
import type { ChatCompletionsRepo, ChatCompletionFilter, StoredChatCompletionRow } from '../storage/chat-completions-repo.ts';
import type { CursorAsk } from '../storage/cursor-rows.ts';
import type { Db } from '../storage/database.ts';
import type { Clock } from '../time.ts';
import { evictOverQuota } from './bounded-store.ts';
import type { StorageLimits } from './storage-limits.ts';

type Json = Record<string, unknown>;

/** A completion ready to store. */
export interface PreparedCompletion {
  completionId: string;
  model: string;
  metadataJson: string;
  messagesJson: string;
  completionJson: string;
  bytes: number;
}

export class StoredChatCompletions {
  private readonly repo: ChatCompletionsRepo;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly limits: StorageLimits;
  constructor(deps: { repo: ChatCompletionsRepo; db: Db; clock: Clock; limits: StorageLimits }) {
    this.repo = deps.repo;
    this.db = deps.db;
    this.clock = deps.clock;
    this.limits = deps.limits;
  }

  /** The stored form of a completion (with its metadata); a 400 (param `store`) when larger than one stored object may be. Call before any charge. */
  prepare(completion: Json, messages: unknown[], metadata: Record<string, string> | null): PreparedCompletion {
    const messagesJson = JSON.stringify(messages);
    const completionJson = JSON.stringify({ ...completion, metadata: metadata ?? {} });
    const bytes = Buffer.byteLength(messagesJson) + Buffer.byteLength(completionJson);
    const max = this.limits.storedResponseBytes;
    if (bytes > max) {
      throw invalid(
        `The completion is too large to store: ${bytes} bytes with its messages, at most ${max}. Send it with store: false.`,
        'store',
      );
    }
    return {
      completionId: String(completion['id']),
      model: String(completion['model']),
      metadataJson: JSON.stringify(metadata ?? {}),
      messagesJson,
      completionJson,
      bytes,
    };
  }

  /** Keeps a completion: expired ones go first (a bounded batch), then the account's oldest while it is over its quota. */
  save(accountId: number, prepared: PreparedCompletion): void {
    this.db
      .transaction(() => {
        this.repo.deleteExpired(this.notBefore(), this.limits.pruneBatch);
        this.repo.insert({
          completion_id: prepared.completionId,
          account_id: accountId,
          model: prepared.model,
          metadata_json: prepared.metadataJson,
          messages_json: prepared.messagesJson,
          completion_json: prepared.completionJson,
          created_at: this.clock.now(),
          bytes: prepared.bytes,
        });
        evictOverQuota(this.repo.sized, accountId, prepared.completionId, this.limits.storedAccountBytes);
      })
      .immediate();
  }

  /**
   * `deltas` passed on as they come; once the stream has ended with its usage, `onResult` gets the whole answer
   * (a stream cut short is not stored).
   */
  async *recording(deltas: AsyncIterable<ChatDelta>, onResult: (result: ChatResult) => void): AsyncGenerator<ChatDelta> {
    const seen: ChatDelta[] = [];
    let finished = false;
    for await (const delta of deltas) {
      seen.push(delta);
      if (delta.type === 'usage') finished = true;
      yield delta;
    }
    if (finished) onResult(await collectChat(replay(seen)));
  }

  get(accountId: number, completionId: string): Json {
    return JSON.parse(this.find(accountId, completionId).completion_json) as Json;
  }

  list(accountId: number, filter: Omit<ChatCompletionFilter, 'notBefore'>, ask: CursorAsk): { data: Json[]; hasMore: boolean } {
    const { rows, hasMore } = this.repo.list(accountId, { ...filter, notBefore: this.notBefore() }, ask);
    return { data: rows.map((row) => JSON.parse(row.completion_json) as Json), hasMore };
  }

  /** Replaces the completion's metadata; returns the updated completion. */
  update(accountId: number, completionId: string, metadata: Record<string, string>): Json {
    const completion = { ...this.get(accountId, completionId), metadata };
    this.repo.updateMetadata(accountId, completionId, JSON.stringify(metadata), JSON.stringify(completion));
    return completion;
  }

  delete(accountId: number, completionId: string): void {
    this.find(accountId, completionId);
    this.repo.delete(accountId, completionId);
  }

  /** The request's messages as sent, in order. */
  messages(accountId: number, completionId: string): unknown[] {
    return JSON.parse(this.find(accountId, completionId).messages_json) as unknown[];
  }

  private find(accountId: number, completionId: string): StoredChatCompletionRow {
    const row = this.repo.find(accountId, completionId, this.notBefore());
    if (!row) throw notFound(`No chat completion found with id '${completionId}'.`, 'completion_id');
    return row;
  }

  /** Completions created before this time have expired. */
  private notBefore(): number {
    return this.clock.now() - this.limits.storedMaxAgeMs;
  }
}

async function* replay(deltas: readonly ChatDelta[]): AsyncGenerator<ChatDelta> {
  yield* deltas;
}

// Conversations API conversations kept by the gateway, per account: metadata, items added by the caller or by Responses calls that name the conversation, within bounds.
import { GatewayError, invalid } from '../errors.ts';
import { publicId } from '../ids.ts';
import { normalizeInput } from '../protocols/responses/inbound/items.ts';
import type { ConversationRow, ConversationsRepo } from '../storage/conversations-repo.ts';
import type { Db } from '../storage/database.ts';
import type { Clock } from '../time.ts';
import { evictOverQuota } from './bounded-store.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';
import { partsOf } from './stored-responses.ts';

type Json = Record<string, unknown>;

/** Most items one create (of a conversation or of its items) may add, as on the real API; more is a 400. */
export const CONVERSATION_ITEMS_PER_CALL = 20;

/** The storage bounds conversations keep: their own sizes and counts, and the stored responses' age (a conversation unchanged that long is gone). */
type ConversationLimits = Pick<
  StorageLimits,
  'conversationBytes' | 'conversationAccountBytes' | 'conversationsPerAccount' | 'storedMaxAgeMs' | 'pruneBatch'
>;

/** The 404 of a conversation the account cannot see (unknown, expired or another account's): the same words whichever it is. */
export function conversationNotFound(id: string, param: string | null = null): GatewayError {
  return new GatewayError('not_found', `Conversation with id '${id}' not found.`, param);
}

/** The real API's refusal of a Responses call naming a conversation another call is answering on. */
function conversationLocked(): GatewayError {
  return new GatewayError(
    'invalid_request',
    'Another process is currently operating on this conversation. Please retry in a few seconds.',
    'conversation',
    undefined,
    { code: 'conversation_locked' },
  );
}

export class Conversations {
  private readonly repo: ConversationsRepo;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly limits: ConversationLimits;
  /** The conversations (account and id) a Responses call's turn is under way on (see `beginTurn`). */
  private readonly turns = new Set<string>();
  constructor(repo: ConversationsRepo, db: Db, clock: Clock, limits: ConversationLimits = STORAGE_LIMITS) {
    this.repo = repo;
    this.db = db;
    this.clock = clock;
    this.limits = limits;
  }

  /** A new conversation with its metadata and first items (at most `itemsPerCall`). */
  create(accountId: number, metadata: Record<string, string>, input: unknown): Json {
    const items = this.itemsOf(input, 'items').map(storedItem);
    const conversationId = publicId('conv');
    const now = this.clock.now();
    const texts = this.sized(JSON.stringify(metadata), items, 'items');
    this.db
      .transaction(() => {
        this.repo.deleteExpired(now - this.limits.storedMaxAgeMs, this.limits.pruneBatch);
        this.repo.insert({ conversation_id: conversationId, account_id: accountId, ...texts, created_at: now, updated_at: now });
        const over = this.repo.accountCount(accountId) - this.limits.conversationsPerAccount;
        if (over > 0) this.repo.sized.deleteRows(this.repo.sized.oldest(accountId, conversationId, over).map((row) => row.id));
        evictOverQuota(this.repo.sized, accountId, conversationId, this.limits.conversationAccountBytes);
      })
      .immediate();
    return { id: conversationId, object: 'conversation', created_at: Math.floor(now / 1000), metadata };
  }

  get(accountId: number, conversationId: string, param: string | null = null): Json {
    return rendered(this.find(accountId, conversationId, param));
  }

  /** Replaces the conversation's metadata (null clears it). */
  update(accountId: number, conversationId: string, metadata: Record<string, string>): Json {
    const row = this.find(accountId, conversationId);
    const items = JSON.parse(row.items_json) as Json[];
    const texts = this.sized(JSON.stringify(metadata), items, 'metadata');
    this.repo.update(accountId, conversationId, { ...texts, updated_at: this.clock.now() });
    return { ...rendered(row), metadata };
  }

  delete(accountId: number, conversationId: string): Json {
    if (!this.repo.delete(accountId, conversationId)) throw conversationNotFound(conversationId);
    return { id: conversationId, object: 'conversation.deleted', deleted: true };
  }

  /** The conversation's items, oldest first, each with its id. */
  items(accountId: number, conversationId: string, param: string | null = null): Json[] {
    return JSON.parse(this.find(accountId, conversationId, param).items_json) as Json[];
  }

  /** Adds caller items (at most `itemsPerCall`); returns them as stored, with their ids. */
  addItems(accountId: number, conversationId: string, input: unknown): Json[] {
    return this.append(accountId, conversationId, this.itemsOf(input, 'items'), true);
  }

  /**
   * Appends items to the conversation. Caller items (`bounded`) are a 400 (param `items`) when the conversation would exceed
   * its bound, nothing appended; a Responses call's turn (its input, checked by `beginTurn` before the call, and its output)
   * is always appended, so a conversation may pass its bound by one answer (one turn at a time: `beginTurn`), and then takes
   * no more turns.
   */
  append(accountId: number, conversationId: string, items: Json[], bounded: boolean): Json[] {
    const row = this.find(accountId, conversationId, bounded ? null : 'conversation');
    const added = items.map(storedItem);
    const all = [...(JSON.parse(row.items_json) as Json[]), ...added];
    const texts = bounded ? this.sized(row.metadata_json, all, 'items') : this.texts(row.metadata_json, all);
    this.db
      .transaction(() => {
        this.repo.update(accountId, conversationId, { ...texts, updated_at: this.clock.now() });
        evictOverQuota(this.repo.sized, accountId, conversationId, this.limits.conversationAccountBytes);
      })
      .immediate();
    return added;
  }

  /**
   * Starts a Responses call's turn on the conversation, before anything is made: a 404 when the account cannot see it, a
   * 400 (param `conversation`, code `conversation_locked`, as the real API answers) while another call's turn on it is
   * under way, a 400 when the call's input would not fit. Returns the end of the turn (a second call does nothing). One
   * turn at a time is what keeps the bound when many calls name the conversation at once: each checks the room its
   * input needs against what the turns before it added, and the conversation passes its bound by one answer at most.
   */
  beginTurn(accountId: number, conversationId: string, input: Json[]): () => void {
    const row = this.find(accountId, conversationId, 'conversation');
    const key = `${accountId}\n${conversationId}`;
    if (this.turns.has(key)) throw conversationLocked();
    this.sized(row.metadata_json, [...(JSON.parse(row.items_json) as Json[]), ...input], 'conversation');
    this.turns.add(key);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.turns.delete(key);
    };
  }

  item(accountId: number, conversationId: string, itemId: string): Json {
    const found = this.items(accountId, conversationId).find((item) => item['id'] === itemId);
    if (!found) throw new GatewayError('not_found', `Item with id '${itemId}' not found.`, null);
    return found;
  }

  /** Deletes one item; returns the conversation. */
  deleteItem(accountId: number, conversationId: string, itemId: string): Json {
    const row = this.find(accountId, conversationId);
    const items = JSON.parse(row.items_json) as Json[];
    const kept = items.filter((item) => item['id'] !== itemId);
    if (kept.length === items.length) throw new GatewayError('not_found', `Item with id '${itemId}' not found.`, null);
    this.repo.update(accountId, conversationId, { ...this.sized(row.metadata_json, kept, 'items'), updated_at: this.clock.now() });
    return rendered(row);
  }

  private itemsOf(input: unknown, param: string): Json[] {
    if (input === undefined || input === null) return [];
    if (!Array.isArray(input)) throw invalid(`Invalid type for '${param}': expected an array of items.`, param);
    if (input.length > CONVERSATION_ITEMS_PER_CALL) {
      throw invalid(`Invalid '${param}': at most ${CONVERSATION_ITEMS_PER_CALL} items per call, got ${input.length}.`, param);
    }
    return normalizeInput(input);
  }

  /** The JSON texts of a conversation and their size; a 400 (param `param`) when over the conversation bound. */
  private sized(metadataJson: string, items: Json[], param: string) {
    const texts = this.texts(metadataJson, items);
    const max = this.limits.conversationBytes;
    if (texts.bytes > max) {
      throw invalid(
        `The conversation is too large: it would take ${texts.bytes} bytes, at most ${max} bytes per conversation. Start a new conversation.`,
        param,
      );
    }
    return texts;
  }

  private texts(metadataJson: string, items: Json[]) {
    const itemsJson = JSON.stringify(items);
    return { metadata_json: metadataJson, items_json: itemsJson, bytes: Buffer.byteLength(metadataJson) + Buffer.byteLength(itemsJson) };
  }

  private find(accountId: number, conversationId: string, param: string | null = null): ConversationRow {
    const row = this.repo.find(accountId, conversationId, this.clock.now() - this.limits.storedMaxAgeMs);
    if (!row) throw conversationNotFound(conversationId, param);
    return row;
  }
}

/** A kept item as a Responses call's input: a user, system or developer message without the id and status input messages do not take. */
export function asInput(item: Json): Json {
  if (item['type'] !== 'message' || item['role'] === 'assistant') return item;
  const { id: _id, status: _status, ...input } = item;
  return input;
}

function rendered(row: ConversationRow): Json {
  return {
    id: row.conversation_id,
    object: 'conversation',
    created_at: Math.floor(row.created_at / 1000),
    metadata: JSON.parse(row.metadata_json),
  };
}

/** An item as a conversation keeps it: with an id (its own, or a new one), a message's content as parts and a status. */
function storedItem(item: Json): Json {
  const listed = item['type'] === 'message' ? { ...item, content: partsOf(item), status: item['status'] ?? 'completed' } : item;
  if (typeof item['id'] === 'string') return listed;
  return { id: publicId(item['type'] === 'message' ? 'msg' : 'item'), ...listed };
}

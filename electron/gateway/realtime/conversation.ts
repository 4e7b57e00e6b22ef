// The default conversation of a realtime session: its items in order, what the model reads from each, and their audio.
import type { Fields } from '../protocols/fields.ts';
import type { ChatTurn } from '../protocols/neutral/chat.ts';
import { invalidField } from './fields.ts';
import { REALTIME_LIMITS } from './limits.ts';

/** One conversation item. */
export interface Entry {
  /** The item as presented to the client (no audio data). */
  item: Fields;
  /** What the model reads from it; null for items it ignores. */
  turn: ChatTurn | null;
  /** The item's audio at 24 kHz: user input audio, or an assistant's spoken answer. */
  audio?: Int16Array;
  /** For user input audio: the text the model heard in it (billed as input audio tokens, not as text). */
  spoken?: string;
}

/** What an entry costs to keep: its item's JSON (characters) plus its decoded audio (bytes). */
export function entryBytes(entry: Entry, itemChars = JSON.stringify(entry.item).length): number {
  return itemChars + (entry.audio?.byteLength ?? 0);
}

export class Conversation {
  private readonly entries: Entry[] = [];
  /** Each entry's item JSON length, measured once when inserted (items change little after). */
  private readonly itemChars = new WeakMap<Entry, number>();

  get lastId(): string | null {
    return (this.entries.at(-1)?.item['id'] as string | undefined) ?? null;
  }

  /** Inserts after `previousId` (`root`: first; absent: last) and returns the id of the item before it. */
  insert(entry: Entry, previousId?: string | null): string | null {
    const id = entry.item['id'] as string;
    this.itemChars.set(entry, JSON.stringify(entry.item).length);
    if (this.find(id)) throw invalidField(`Item with id '${id}' already exists in the conversation.`, 'item.id', 'item_id_exists');
    if (previousId === undefined || previousId === null) {
      const before = this.lastId;
      this.entries.push(entry);
      return before;
    }
    if (previousId === 'root') {
      this.entries.unshift(entry);
      return null;
    }
    const at = this.entries.findIndex((e) => e.item['id'] === previousId);
    if (at < 0) throw invalidField(`Previous item with id '${previousId}' does not exist.`, 'previous_item_id', 'item_not_found');
    this.entries.splice(at + 1, 0, entry);
    return previousId;
  }

  find(id: string): Entry | undefined {
    return this.entries.find((e) => e.item['id'] === id);
  }

  /** The entry, or an error naming `param`. */
  get(id: unknown, param = 'item_id'): Entry {
    const entry = typeof id === 'string' ? this.find(id) : undefined;
    if (!entry) throw invalidField(`Item with item_id '${String(id)}' not found in the conversation.`, param, 'item_not_found');
    return entry;
  }

  delete(id: unknown): string {
    const entry = this.get(id);
    this.entries.splice(this.entries.indexOf(entry), 1);
    return entry.item['id'] as string;
  }

  /** The id of the item just before `id` (null when it is the first or not there). */
  previousOf(id: string): string | null {
    const at = this.entries.findIndex((e) => e.item['id'] === id);
    return at > 0 ? (this.entries[at - 1]!.item['id'] as string) : null;
  }

  /** The name of the function called with `callId` in this conversation, if any. */
  callName(callId: string): string | undefined {
    const call = this.entries.find((e) => e.item['type'] === 'function_call' && e.item['call_id'] === callId);
    return call?.item['name'] as string | undefined;
  }

  /**
   * Drops the oldest entries (never `keep`, the one just added) while the conversation holds more than
   * `REALTIME_LIMITS.conversationItems` items or `conversationBytes` bytes, as the real API truncates a full context; returns the dropped ids.
   */
  trim(keep: Entry): string[] {
    let bytes = this.entries.reduce((sum, entry) => sum + entryBytes(entry, this.itemChars.get(entry)), 0);
    const dropped: string[] = [];
    while (
      this.entries.length > 1 &&
      (this.entries.length > REALTIME_LIMITS.conversationItems || bytes > REALTIME_LIMITS.conversationBytes)
    ) {
      const at = this.entries[0] === keep ? 1 : 0;
      const [entry] = this.entries.splice(at, 1);
      bytes -= entryBytes(entry!, this.itemChars.get(entry!));
      dropped.push(entry!.item['id'] as string);
    }
    return dropped;
  }

  /** All entries, oldest first. */
  all(): readonly Entry[] {
    return this.entries;
  }
}

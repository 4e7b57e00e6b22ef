// The default conversation of a realtime session: its items in order, what the model reads from each, and their audio.
import type { Fields } from '../protocols/fields.ts';
import type { ChatTurn } from '../providers/simulate/text/types.ts';
import { invalidField } from './fields.ts';

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

export class Conversation {
  private readonly entries: Entry[] = [];

  get lastId(): string | null {
    return (this.entries.at(-1)?.item['id'] as string | undefined) ?? null;
  }

  /** Inserts after `previousId` (`root`: first; absent: last) and returns the id of the item before it. */
  insert(entry: Entry, previousId?: string | null): string | null {
    const id = entry.item['id'] as string;
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

  /** All entries, oldest first. */
  all(): readonly Entry[] {
    return this.entries;
  }
}

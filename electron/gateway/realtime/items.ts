// Client conversation items (conversation.item.create, response.create input) validated into conversation entries.
import { publicId } from '../ids.ts';
import type { Fields } from '../protocols/fields.ts';
import type { ChatTurn } from '../protocols/neutral/chat.ts';
import type { Conversation, Entry } from './conversation.ts';
import { expectObject, expectString, invalidField } from './fields.ts';

/** What reading a client item needs. */
export interface ItemReader {
  conversation: Conversation;
  /** Base64 audio in the session's input format, as 24 kHz samples. */
  decode(base64: string, path: string): Int16Array;
  /** What the model hears said in user audio sent without a transcript. */
  hear(samples: Int16Array): Promise<string>;
}

/** Content part types each message role may carry (GA names and their beta spellings). */
const ALLOWED: Record<string, string[]> = {
  system: ['input_text'],
  user: ['input_text', 'input_audio', 'input_image', 'text'],
  assistant: ['output_text', 'text', 'output_audio', 'audio'],
};

/** A client item as a conversation entry; `item_reference` (allowed in response input only) returns the referenced entry. */
export async function readClientItem(raw: unknown, path: string, reader: ItemReader, allowReference = false): Promise<Entry> {
  const item = expectObject(raw, path);
  const type = item['type'];
  if (type === 'item_reference' && allowReference) return reader.conversation.get(item['id'], `${path}.id`);
  const id = item['id'] === undefined ? publicId('item') : expectString(item['id'], `${path}.id`);
  if (id === '' || id.length > 32) throw invalidField(`Invalid '${path}.id': expected 1 to 32 characters.`, `${path}.id`);
  const base = { id, object: 'realtime.item', type, status: 'completed' };
  switch (type) {
    case 'message':
      return readMessage(item, path, base, reader);
    case 'function_call': {
      const callId = expectString(item['call_id'], `${path}.call_id`);
      const name = expectString(item['name'], `${path}.name`);
      const args = item['arguments'] === undefined ? '{}' : expectString(item['arguments'], `${path}.arguments`);
      return {
        item: { ...base, call_id: callId, name, arguments: args },
        turn: { role: 'assistant', text: '', toolCalls: [{ id: callId, name, arguments: args }] },
      };
    }
    case 'function_call_output': {
      const callId = expectString(item['call_id'], `${path}.call_id`);
      const output = expectString(item['output'], `${path}.output`);
      const name = reader.conversation.callName(callId);
      if (name === undefined) throw invalidField(`Tool call ID '${callId}' not found in conversation.`, `${path}.call_id`);
      return { item: { ...base, call_id: callId, output }, turn: { role: 'tool', toolCallId: callId, name, text: output } };
    }
    default:
      throw invalidField(
        `Invalid value for '${path}.type': expected 'message', 'function_call' or 'function_call_output'${allowReference ? " or 'item_reference'" : ''}.`,
        `${path}.type`,
      );
  }
}

async function readMessage(item: Fields, path: string, base: Fields, reader: ItemReader): Promise<Entry> {
  const role = item['role'];
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    throw invalidField(`Invalid value for '${path}.role': expected 'user', 'assistant' or 'system'.`, `${path}.role`);
  }
  const content = item['content'];
  if (!Array.isArray(content) || content.length === 0)
    throw invalidField(
      `Missing required parameter: '${path}.content' (a non-empty array).`,
      `${path}.content`,
      'missing_required_parameter',
    );
  const texts: string[] = [];
  const audio: Int16Array[] = [];
  const spoken: string[] = [];
  const allowed = ALLOWED[role]!;
  const parts: Fields[] = [];
  for (const [i, raw] of content.entries()) {
    parts.push(await readPart(raw, i));
  }
  async function readPart(raw: unknown, i: number): Promise<Fields> {
    const at = `${path}.content[${i}]`;
    const part = expectObject(raw, at);
    const type = expectString(part['type'], `${at}.type`);
    if (!allowed.includes(type))
      throw invalidField(`Invalid value for '${at}.type': a ${String(role)} message takes ${allowed.join(', ')}.`, `${at}.type`);
    if (type === 'input_image') {
      texts.push('(an image)');
      return { type, image_url: part['image_url'] ?? null };
    }
    if (type === 'input_audio' || type === 'output_audio' || type === 'audio') {
      const transcript =
        part['transcript'] === undefined || part['transcript'] === null ? null : expectString(part['transcript'], `${at}.transcript`);
      if (part['audio'] !== undefined) {
        if (role === 'assistant')
          throw invalidField(`Invalid '${at}.audio': assistant audio cannot be added by the client; send its transcript.`, `${at}.audio`);
        const samples = reader.decode(expectString(part['audio'], `${at}.audio`), `${at}.audio`);
        audio.push(samples);
        spoken.push(transcript ?? (await reader.hear(samples)));
        texts.push(spoken.at(-1)!);
      } else if (transcript !== null) {
        texts.push(transcript);
      } else {
        throw invalidField(`Missing required parameter: '${at}.audio' or '${at}.transcript'.`, `${at}.audio`, 'missing_required_parameter');
      }
      return { type, transcript };
    }
    const text = expectString(part['text'], `${at}.text`);
    texts.push(text);
    return { type, text };
  }
  const entry: Entry = { item: { ...base, role, content: parts }, turn: { role, text: texts.join(' ').trim() } as ChatTurn };
  if (audio.length > 0) {
    const all = new Int16Array(audio.reduce((sum, a) => sum + a.length, 0));
    audio.reduce((at, a) => (all.set(a, at), at + a.length), 0);
    entry.audio = all;
    entry.spoken = spoken.join(' ');
  }
  return entry;
}

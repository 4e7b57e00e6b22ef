// The audio of a conversation item: shown with the item when retrieved, and an assistant's answer cut where the listener stopped (conversation.item.truncate).
import type { Fields } from '../protocols/fields.ts';
import { encodeAudio } from './audio-format.ts';
import type { Entry } from './conversation.ts';
import { expectNumber, invalidField } from './fields.ts';
import { msOfSamples, samplesOfMs } from './input-audio.ts';
import type { SessionConfig } from './session-config.ts';

/** The item as `conversation.item.retrieved` shows it: with its audio, base64 in the session's output (assistant) or input (user) format. */
export function withAudio(entry: Entry, config: SessionConfig): Fields {
  if (!entry.audio) return entry.item;
  const format = entry.spoken === undefined ? config.outputFormat : config.inputFormat;
  const audio = encodeAudio(entry.audio, format).toString('base64');
  const parts = entry.item['content'] as Fields[];
  return { ...entry.item, content: parts.map((part) => (/audio/.test(String(part['type'])) ? { ...part, audio } : part)) };
}

/**
 * Cuts an assistant message's audio at the `audio_end_ms` of a `conversation.item.truncate` event and drops its transcript
 * (nothing the user has not heard stays in the context); returns where it was cut, in ms. Throws the event's problem.
 */
export function truncateAudio(entry: Entry, event: Fields): number {
  if (entry.item['type'] !== 'message' || entry.item['role'] !== 'assistant' || !entry.audio) {
    throw invalidField('Only assistant messages with audio can be truncated.', 'item_id', 'invalid_value');
  }
  if (event['content_index'] !== 0)
    throw invalidField("Invalid 'content_index': an assistant message has its audio at content_index 0.", 'content_index');
  const endMs = Math.round(expectNumber(event['audio_end_ms'], 'audio_end_ms', 0, Number.MAX_SAFE_INTEGER));
  const durationMs = msOfSamples(entry.audio.length);
  if (endMs > durationMs) throw invalidField(`Audio content of ${durationMs}ms is already shorter than ${endMs}ms.`, 'audio_end_ms');
  entry.audio = entry.audio.slice(0, samplesOfMs(endMs));
  entry.turn = { role: 'assistant', text: '' };
  const parts = entry.item['content'] as Fields[];
  entry.item = { ...entry.item, content: parts.map((part) => ({ ...part, transcript: '' })) };
  return endMs;
}

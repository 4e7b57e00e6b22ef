// The text a streamed answer carried, put back together from its recorded events (OpenAI chat and completions, Responses, Anthropic, Gemini).
import type { JournalEntry } from '../../../../shared/journal.ts';

/** The assembled text of a streamed answer, and whether the recording stopped short of its end. */
export interface AssembledText {
  text: string;
  /** True when the recorded body was cut at the journal's limit: the text is only its beginning. */
  cut: boolean;
}

/** The parts of a stream event, in any of the gateway's protocols, that may carry text. */
interface StreamEvent {
  type?: unknown;
  delta?: unknown;
  choices?: Array<{ index?: number; text?: unknown; delta?: { content?: unknown } }>;
  candidates?: Array<{ content?: { parts?: Array<{ text?: unknown }> } }>;
}

const textOr = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The text of one stream event ('' when it carries none); of several choices, the first. */
function textOfEvent(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const event = value as StreamEvent;
  const choice = Array.isArray(event.choices) ? event.choices.find((item) => (item?.index ?? 0) === 0) : undefined;
  if (choice) return textOr(choice.delta?.content) || textOr(choice.text);
  if (event.type === 'response.output_text.delta') return textOr(event.delta);
  if (event.type === 'content_block_delta') return textOr((event.delta as { text?: unknown } | undefined)?.text);
  const parts = Array.isArray(event.candidates) ? event.candidates[0]?.content?.parts : undefined;
  return Array.isArray(parts) ? parts.map((part) => textOr(part?.text)).join('') : '';
}

/** The JSON events of a recorded stream: SSE `data:` lines, or the elements of a JSON array stream (Gemini without `alt=sse`). */
function eventsOf(body: string): unknown[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      // A cut array: read what the SSE reading below can't; nothing.
      return [];
    }
  }
  const events: unknown[] = [];
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      events.push(JSON.parse(data));
    } catch {
      // A malformed frame (a fault) or the last, cut one.
    }
  }
  return events;
}

/** The assembled text of a recorded streamed answer; null for a call that did not stream or whose body was not kept. */
export function assembledText(entry: Pick<JournalEntry, 'stream' | 'response'>): AssembledText | null {
  if (!entry.stream || entry.response.text === null) return null;
  const text = eventsOf(entry.response.text).map(textOfEvent).join('');
  return { text, cut: entry.response.truncated };
}

// The `compaction` item of the Responses API: a conversation's summary, opaque (base64) to clients as the real API's encrypted content is, read back when sent as input.
import { invalid } from '../../../errors.ts';
import type { Fields } from '../../fields.ts';

/** Marks the simulator's own summaries inside `encrypted_content`. */
const MARK = 'gatehouse-compaction-v1:';

/** The `compaction` item holding `summary`. */
export function compactionItem(id: string, summary: string): Fields {
  return { id, type: 'compaction', encrypted_content: Buffer.from(MARK + summary, 'utf8').toString('base64') };
}

/** The summary a `compaction` input item carries, or a 400 naming `path` when it is not one this gateway made. */
export function summaryOf(item: Fields, path: string): string {
  const content = item['encrypted_content'];
  const text = typeof content === 'string' ? Buffer.from(content, 'base64').toString('utf8') : '';
  if (!text.startsWith(MARK))
    throw invalid(`Invalid '${path}.encrypted_content': not a compaction this gateway made.`, `${path}.encrypted_content`);
  return text.slice(MARK.length);
}

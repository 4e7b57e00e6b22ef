// Journal records and entries for tests that write the journal through its repository or show an entry: one call with every field set, and the parts a test names overridden.
import type { JournalBody, JournalEntry, JournalRecord } from '../../shared/journal.ts';

/** A body the journal kept as text (JSON by default). */
export const keptBody = (text: string | null, contentType: string | null = 'application/json'): JournalBody => ({
  contentType,
  bytes: text === null ? 0 : Buffer.byteLength(text),
  text,
  truncated: false,
});

/** One recorded call (an embeddings call answered 200), with `call` and `detail` fields replaced. */
export function journalRecord(
  call: Partial<Omit<JournalRecord, 'detail'>> = {},
  detail: Partial<JournalRecord['detail']> = {},
): JournalRecord {
  return {
    at: 1,
    method: 'POST',
    path: '/v1/embeddings',
    protocol: 'openai',
    model: 'm',
    account: 'local',
    status: 200,
    durationMs: 1,
    stream: false,
    error: null,
    token: 'default',
    ...call,
    detail: {
      query: {},
      requestHeaders: {},
      request: keptBody(null, null),
      responseHeaders: {},
      response: keptBody(null, null),
      timing: null,
      ...detail,
    },
  };
}

/** The same call as the admin API shows it, with id `id`. */
export function journalEntry(id: number, detail: Partial<JournalRecord['detail']> = {}): JournalEntry {
  const { detail: parts, ...call } = journalRecord({}, detail);
  return { id, ...call, token: call.token ?? null, usage: null, firstOutputMs: null, ...parts };
}

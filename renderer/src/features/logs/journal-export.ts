// Recorded calls as files to download: HAR 1.2 (for browser dev tools and HAR viewers) or the journal's own JSON.
import type { JournalEntry } from '../../../../shared/journal.ts';

type Pair = { name: string; value: string };
const pairs = (record: Record<string, string>): Pair[] => Object.entries(record).map(([name, value]) => ({ name, value }));

/** One recorded call as a HAR entry (credentials were never recorded; the journal's own facts go under `_gatehouse`). */
function harEntry(entry: JournalEntry, baseUrl: string) {
  const query = new URLSearchParams(entry.query).toString();
  const wait = entry.timing ? entry.timing.firstByteMs : entry.durationMs;
  return {
    startedDateTime: new Date(entry.at).toISOString(),
    time: entry.durationMs,
    request: {
      method: entry.method,
      url: `${baseUrl}${entry.path}${query ? `?${query}` : ''}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(entry.requestHeaders),
      queryString: pairs(entry.query),
      headersSize: -1,
      bodySize: entry.request.bytes,
      ...(entry.request.text !== null && { postData: { mimeType: entry.request.contentType ?? '', text: entry.request.text } }),
    },
    response: {
      status: entry.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(entry.responseHeaders),
      content: {
        size: entry.response.bytes,
        mimeType: entry.response.contentType ?? '',
        ...(entry.response.text !== null && { text: entry.response.text }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: entry.response.bytes,
    },
    cache: {},
    timings: { send: 0, wait, receive: Math.max(0, entry.durationMs - wait) },
    _gatehouse: {
      id: entry.id,
      protocol: entry.protocol,
      model: entry.model,
      account: entry.account,
      token: entry.token ?? null,
      usage: entry.usage ?? null,
      firstOutputMs: entry.firstOutputMs ?? null,
      error: entry.error,
      ...(entry.relay && { relay: entry.relay }),
    },
  };
}

/** The calls as a HAR 1.2 document, URLs on `baseUrl`. */
export function harOf(entries: readonly JournalEntry[], baseUrl: string, version: string): string {
  return JSON.stringify(
    { log: { version: '1.2', creator: { name: 'Gatehouse', version }, entries: entries.map((entry) => harEntry(entry, baseUrl)) } },
    null,
    2,
  );
}

/** The calls as the admin API answers them, one array. */
export function jsonOf(entries: readonly JournalEntry[]): string {
  return JSON.stringify(entries, null, 2);
}

/** Offers `text` as a file download named `name`. */
export function downloadText(name: string, text: string, type: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// Test helper for relay tests: what a gateway recorded of its calls (journal entries, usage rows), read back the way a user would.
import { request, runningGateways, type TestGateway } from './gateway.ts';

/** One usage record as billed. */
export interface UsageRow {
  model: string;
  endpoint: string;
  input_tokens: number;
  output_tokens: number;
}

/** Every usage record of `gw`, oldest first (a relayed answer's charge, which no one waits for, committed first). */
export function usageRows(gw: TestGateway): UsageRow[] {
  gw.gateway.context.writes.flush();
  return gw.gateway.context.db
    .prepare('SELECT model, endpoint, input_tokens, output_tokens FROM usage_records ORDER BY id')
    .all() as UsageRow[];
}

/** The whole journal entries of `gw` through its admin API, newest first: on exactly `path`, or on paths starting with `prefix`. */
export async function journalEntries(gw: TestGateway, where: { path: string } | { prefix: string }): Promise<any[]> {
  const admin = (url: string) => request(`${gw.url}/admin/api${url}`, 'GET', { token: gw.gateway.adminToken });
  const query = 'path' in where ? `?path=${encodeURIComponent(where.path)}` : '';
  const { items } = (await admin(`/journal${query}`)).body as { items: { id: number; path: string }[] };
  const matching = 'prefix' in where ? items.filter((item) => item.path.startsWith(where.prefix)) : items;
  return Promise.all(matching.map(async (item) => (await admin(`/journal/${item.id}`)).body));
}

/**
 * Waits for this process's gateways to record the calls they answered. A call is recorded when its response closes,
 * a moment after the client has its answer, and written in batches 100 ms later. On a busy machine the 300 ms can
 * pass while a close is still unseen, so one I/O turn lets it be seen, and then each journal writes what it holds.
 */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  await new Promise((resolve) => setImmediate(resolve));
  for (const gw of runningGateways()) gw.gateway.context.journal.flush();
}

/** The part of the relay usage tap these helpers drive: bytes in, bytes out. */
interface BytePipe {
  pass(chunk: Uint8Array): Uint8Array;
  end(): Uint8Array;
}

/** `text` through `tap` in pieces of `size` bytes (split anywhere, even inside a character); the text that passed. */
export function throughTap(tap: BytePipe, text: string, size: number): string {
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  let passed = '';
  for (let at = 0; at < bytes.length; at += size) passed += decoder.decode(tap.pass(bytes.subarray(at, at + size)), { stream: true });
  return passed + decoder.decode(tap.end());
}

// Test helper: reads a whole server-sent-events answer into its frames (event name and JSON data), as a raw client sees them.
import { SseReader } from '../../shared/sse-reader.ts';

/** One SSE frame: its `event:` name (undefined for data-only frames) and its parsed `data:` JSON. */
export interface SseFrame {
  event: string | undefined;
  data: any;
}

/** Reads an SSE body with the gateway's own reader and parses each frame's data as JSON (`[DONE]` stays a string); comments and frames without data are left out. */
export function parseSseFrames(body: string): SseFrame[] {
  const reader = new SseReader();
  const events = reader.push(new TextEncoder().encode(body));
  const last = reader.end();
  return [...events, ...(last ? [last] : [])]
    .filter((event) => event.data !== undefined)
    .map((event) => ({ event: event.type || undefined, data: event.data === '[DONE]' ? event.data : JSON.parse(event.data!) }));
}

/** POSTs JSON and returns the status, headers and SSE frames of the answer. */
export async function postForFrames(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; frames: SseFrame[] }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, frames: response.ok ? parseSseFrames(text) : [] };
}

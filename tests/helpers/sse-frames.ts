// Test helper: reads a whole server-sent-events answer into its frames (event name and JSON data), as a raw client sees them.

/** One SSE frame: its `event:` name (undefined for data-only frames) and its parsed `data:` JSON. */
export interface SseFrame {
  event: string | undefined;
  data: any;
}

/** Splits an SSE body on blank lines and parses each frame's data as JSON (`[DONE]` stays a string). */
export function parseSseFrames(body: string): SseFrame[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '' && !block.split(/\r?\n/).every((line) => line.startsWith(':')))
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      const text = data.join('\n');
      return { event, data: text === '[DONE]' ? text : JSON.parse(text) };
    });
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

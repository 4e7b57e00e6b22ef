// Server-sent events reader: splits a byte stream into `{event, data}` messages as they arrive.

/** One server-sent event. */
export interface SseMessage {
  event: string | undefined;
  data: string;
}

/** Parses complete SSE messages out of `buffer`; returns them and the unfinished rest. */
export function parseSseChunk(buffer: string): { messages: SseMessage[]; rest: string } {
  const normalized = buffer.replace(/\r\n?/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  const messages: SseMessage[] = [];
  for (const block of blocks) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0 || event !== undefined) messages.push({ event, data: data.join('\n') });
  }
  return { messages, rest };
}

/** Reads a response body as SSE, calling `onRaw` with each decoded chunk and `onMessage` with each message. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
  onRaw: (text: string) => void = () => {},
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    onRaw(text);
    const parsed = parseSseChunk(buffer + text);
    buffer = parsed.rest;
    for (const message of parsed.messages) onMessage(message);
  }
  const tail = parseSseChunk(`${buffer}${decoder.decode()}\n\n`);
  for (const message of tail.messages) onMessage(message);
}

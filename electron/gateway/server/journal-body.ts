// The request body as the journal keeps it: the bytes as received (capped), JSON re-indented for reading when that fits, never re-serialised.
import type { FastifyRequest } from 'fastify';
import { JOURNAL_BODY_LIMIT, type JournalBody } from '../../../shared/journal.ts';

/** Content types whose bodies are kept as text. */
export const TEXTUAL_CONTENT = /json|text\/|event-stream|xml|x-www-form-urlencoded|x-ndjson/;

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Indents a valid JSON text two spaces per level, as JSON.stringify(value, null, 2) would, but from the
 * text itself: one pass, no recursion, strings and numbers kept exactly as received. Null when the
 * indented text would be longer than `limit` characters.
 */
export function indentJson(text: string, limit: number): string | null {
  const parts: string[] = [];
  let length = 0;
  let level = 0;
  const put = (part: string) => {
    parts.push(part);
    length += part.length;
  };
  const newline = () => put(`\n${'  '.repeat(level)}`);
  for (let index = 0; index < text.length && length <= limit; index += 1) {
    const char = text[index]!;
    if (char === '"') {
      // Copy the whole string, escapes included.
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      put(text.slice(index, end + 1));
      index = end;
    } else if (char === '{' || char === '[') {
      let next = index + 1;
      while (next < text.length && WHITESPACE.has(text[next]!)) next += 1;
      if (text[next] === '}' || text[next] === ']') {
        put(`${char}${text[next]}`);
        index = next;
      } else {
        put(char);
        level += 1;
        newline();
      }
    } else if (char === '}' || char === ']') {
      level -= 1;
      newline();
      put(char);
    } else if (char === ',') {
      put(',');
      newline();
    } else if (char === ':') {
      put(': ');
    } else if (!WHITESPACE.has(char)) {
      put(char);
    }
  }
  return length > limit ? null : parts.join('');
}

/** The journal's record of a request body: indented JSON when it fits whole, else the received text (cut at the limit), or only its size. */
export function requestBodyOf(request: FastifyRequest): JournalBody {
  const contentType = typeof request.headers['content-type'] === 'string' ? request.headers['content-type'] : null;
  const received = request.receivedBody;
  if (!received || received.bytes === 0) {
    // No body, or one another parser read (multipart): only its declared size.
    return { contentType, bytes: Number(request.headers['content-length'] ?? 0) || 0, text: null, truncated: false };
  }
  if (!received.json && contentType !== null && !TEXTUAL_CONTENT.test(contentType)) {
    return { contentType, bytes: received.bytes, text: null, truncated: false };
  }
  const truncated = received.bytes > received.head.length;
  const text = received.head.toString('utf8');
  const indented = received.json && !truncated ? indentJson(text, JOURNAL_BODY_LIMIT) : null;
  return { contentType, bytes: received.bytes, text: indented ?? text, truncated };
}

// How a journal entry is shown: a JSON request body, kept as received, indented for reading when its indented form fits the body limit.
import { JOURNAL_BODY_LIMIT, type JournalBody, type JournalEntry } from '../../../shared/journal.ts';

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

/** The entry as the admin API shows it: its request body indented when it is whole JSON whose indented form fits `JOURNAL_BODY_LIMIT`. */
export function journalView(entry: JournalEntry): JournalEntry {
  const indented = indentedBody(entry.request);
  return indented === entry.request ? entry : { ...entry, request: indented };
}

function indentedBody(body: JournalBody): JournalBody {
  // Any content type: the gateway reads a body as JSON whatever its type says (`curl -d` sends a form type).
  if (body.text === null || body.truncated) return body;
  const start = body.text.trimStart()[0];
  if (start !== '{' && start !== '[') return body;
  try {
    JSON.parse(body.text);
  } catch {
    return body;
  }
  const text = indentJson(body.text, JOURNAL_BODY_LIMIT);
  return text === null ? body : { ...body, text };
}

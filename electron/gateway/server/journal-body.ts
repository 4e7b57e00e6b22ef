// The request body as the journal keeps it: the bytes as received (capped), never re-serialised (it is indented for reading when an entry is shown: services/journal-view.ts).
import type { FastifyRequest } from 'fastify';
import type { JournalBody } from '../../../shared/journal.ts';

/** Content types whose bodies are kept as text. */
export const TEXTUAL_CONTENT = /json|text\/|event-stream|xml|x-www-form-urlencoded|x-ndjson/;

/** The journal's record of a request body: the received text (cut at the limit), or only its size (binary, multipart). */
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
  if (typeof received.head === 'string') return { contentType, bytes: received.bytes, text: received.head, truncated: false };
  return { contentType, bytes: received.bytes, text: received.head.toString('utf8'), truncated: true };
}

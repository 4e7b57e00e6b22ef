// Parses request bodies as JSON whatever their content type (the spec only recommends application/json); bad or too deeply nested JSON is a clear 400.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JOURNAL_BODY_LIMIT } from '../../../shared/journal.ts';
import { invalid } from '../errors.ts';
import { nestsDeeperThan, tooDeepMessage } from './json-depth.ts';

/** The start of a request body as received, kept for the journal instead of re-serialising the parsed value. */
export interface ReceivedBody {
  /** The body's text when it is at most JOURNAL_BODY_LIMIT bytes (decoded once, for the parser and the journal); else the first JOURNAL_BODY_LIMIT bytes, copied (so the whole body is not kept alive). */
  head: string | Buffer;
  /** Size of the whole body in bytes. */
  bytes: number;
  /** True when the body was parsed as JSON (accepted by the depth check and JSON.parse). */
  json: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the JSON parser for every body it read. */
    receivedBody?: ReceivedBody;
    /** The whole body as received, set by the JSON parser: a relay of the caller's own protocol forwards it untouched. */
    rawBody?: Buffer;
  }
}

/** Bodies up to this size are decoded and parsed in the turn of the event loop that read them; a larger one yields before each step. */
const PARSE_IN_ONE_TURN_BYTES = 1024 * 1024;

/** A body parser of Fastify's buffer form. */
type ContentTypeParserFunction = (
  request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, parsed?: unknown) => void,
) => void;

/** Installs the lenient JSON parser for every content type that has no parser of its own. */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parse: ContentTypeParserFunction = (request, body, done) => {
    const buffer = typeof body === 'string' ? Buffer.from(body) : body;
    // A small body is decoded and parsed in the turn that read it, without a closure per step.
    if (buffer.length <= PARSE_IN_ONE_TURN_BYTES) {
      const text = received(request, buffer);
      if (text.trim() === '') done(null, undefined);
      else parseReceived(request, text, done);
      return;
    }
    // A large body is decoded and parsed in turns of the event loop of their own, so other callers are served between the steps.
    setImmediate(() => {
      const text = received(request, buffer);
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      // A refusal is answered at once; the route runs in a turn after the parse.
      setImmediate(() =>
        parseReceived(request, text, (error, parsed) => (error ? done(error, undefined) : setImmediate(() => done(null, parsed)))),
      );
    });
  };
  // The same parser named for the content type nearly every call sends: Fastify finds it in its cache at once, where a
  // body that only the catch-all takes has its Content-Type header parsed again on every request.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parse);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, parse);
}

/** Decodes `buffer` and notes it on `request` (`receivedBody`, `rawBody`); returns its text. */
function received(request: FastifyRequest, buffer: Buffer): string {
  const text = buffer.toString('utf8');
  const head = buffer.length <= JOURNAL_BODY_LIMIT ? text : Buffer.from(buffer.subarray(0, JOURNAL_BODY_LIMIT));
  request.receivedBody = { head, bytes: buffer.length, json: false };
  request.rawBody = buffer;
  return text;
}

/** Parses a body's text (not blank): too deep or not JSON is a 400; parsed, it is marked as JSON. */
function parseReceived(request: FastifyRequest, text: string, done: (error: Error | null, parsed?: unknown) => void): void {
  if (nestsDeeperThan(text)) {
    done(invalid(tooDeepMessage('Request body')), undefined);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    done(invalid(`Request body is not valid JSON: ${(error as Error).message}`), undefined);
    return;
  }
  request.receivedBody!.json = true;
  done(null, parsed);
}

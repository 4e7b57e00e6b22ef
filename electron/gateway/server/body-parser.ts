// Parses request bodies as JSON whatever their content type (the spec only recommends application/json); bad JSON is a clear 400.
import type { FastifyInstance } from 'fastify';
import { invalid } from '../services/errors.ts';

/** Installs the lenient JSON parser for every content type that has no parser of its own. */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(invalid(`Request body is not valid JSON: ${(error as Error).message}`), undefined);
    }
  });
}

// Unit tests of server/schema-compilers.ts: a route that declares a schema is validated and serialized as with Fastify's own compilers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { lazySchemaCompilers } from '../../../electron/gateway/server/schema-compilers.ts';

test('a body schema is checked and a response schema applied, the compilers loaded on that first schema', async () => {
  const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
  app.post(
    '/echo',
    {
      schema: {
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
        response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    async (request) => ({ ...(request.body as object), secret: 'left out by the response schema' }),
  );
  try {
    const refused = await app.inject({ method: 'POST', url: '/echo', payload: { name: '' } });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().message, /must NOT have fewer than 1 characters/);
    const answered = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'ada' } });
    assert.equal(answered.statusCode, 200);
    assert.deepEqual(answered.json(), { name: 'ada' });
  } finally {
    await app.close();
  }
});

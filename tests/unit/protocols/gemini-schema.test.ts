// Unit tests of the Gemini schema normaliser: OpenAPI-subset schemas become JSON Schema.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { geminiSchemaToJsonSchema } from '../../../electron/gateway/protocols/gemini/inbound/schema.ts';

test('uppercase types, nested properties and items become lowercase JSON Schema types', () => {
  const schema = geminiSchemaToJsonSchema({
    type: 'OBJECT',
    properties: {
      name: { type: 'STRING', description: 'who' },
      tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a', 'b'] }, minItems: 1 },
      size: { type: 'INTEGER', minimum: 0 },
    },
    required: ['name'],
    propertyOrdering: ['name', 'tags', 'size'],
  });
  assert.deepEqual(schema, {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'who' },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
      size: { type: 'integer', minimum: 0 },
    },
    required: ['name'],
  });
});

test('nullable adds the null type; TYPE_UNSPECIFIED drops the constraint; anyOf is converted', () => {
  assert.deepEqual(geminiSchemaToJsonSchema({ type: 'NUMBER', nullable: true }), { type: ['number', 'null'] });
  assert.deepEqual(geminiSchemaToJsonSchema({ type: 'TYPE_UNSPECIFIED', description: 'x' }), { description: 'x' });
  assert.deepEqual(geminiSchemaToJsonSchema({ anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }] }), {
    anyOf: [{ type: 'string' }, { type: 'boolean' }],
  });
});

test('a schema that is already JSON Schema passes through unchanged', () => {
  const json = { type: 'object', properties: { a: { type: ['string', 'null'] } }, additionalProperties: false };
  assert.deepEqual(geminiSchemaToJsonSchema(json), json);
});

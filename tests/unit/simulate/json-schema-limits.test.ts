// Unit tests of bounded schema-driven generation: caps, $ref cycles, endless recursion, output limits, hostile schema documents, and a property test over random schemas.
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { geminiSchemaToJsonSchema } from '../../../electron/gateway/protocols/gemini/inbound/schema.ts';
import { simulateChat } from '../../../electron/gateway/providers/simulate/text/engine.ts';
import {
  checkSchemaDocument,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_GENERATION_STEPS,
  MAX_SCHEMA_NODES,
  MAX_SCHEMA_OUTPUT_CHARS,
  MAX_SCHEMA_OUTPUT_TOKENS,
  SchemaLimitError,
  type SchemaLimitReason,
} from '../../../electron/gateway/protocols/neutral/schema-limits.ts';
import { newBudget, valueFor } from '../../../electron/gateway/providers/simulate/text/json-schema-value.ts';
import { seededRandom } from '../../../electron/gateway/providers/simulate/text/seed.ts';
import { streamPieces } from '../../../electron/gateway/protocols/neutral/stream-pieces.ts';
import { countTokens, estimateInputTokens } from '../../../electron/gateway/protocols/neutral/tokens.ts';
import type { ChatRequest, JsonSchema } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { validateAgainstSchema } from '../../helpers/json-schema-check.ts';

/** minItems 1000 nested three deep: 10^9 strings, the issue's hostile schema. */
const CUBE: JsonSchema = {
  type: 'array',
  minItems: 1000,
  items: { type: 'array', minItems: 1000, items: { type: 'array', minItems: 1000, items: { type: 'string' } } },
};
const SELF: JsonSchema = { $ref: '#' };
const ENDLESS: JsonSchema = { type: 'object', properties: { child: { $ref: '#' } }, required: ['child'] };
const HUGE_STRING: JsonSchema = { type: 'string', minLength: 1e9 };

const format = (schema: JsonSchema, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'sim-chat',
  turns: [{ role: 'user', text: 'answer in JSON' }],
  format: { type: 'json_schema', schema },
  ...extra,
});
const toolCall = (schema: JsonSchema, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'sim-chat',
  turns: [{ role: 'user', text: 'call it' }],
  tools: [{ name: 'fill', parameters: schema }],
  toolChoice: 'required',
  ...extra,
});
const nested = (depth: number): JsonSchema => {
  let schema: JsonSchema = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'array', items: schema };
  return schema;
};

/** Runs `run` and returns the SchemaLimitError it must throw (any other outcome fails the test). */
function refusal(run: () => unknown, reason: SchemaLimitReason): SchemaLimitError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof SchemaLimitError, `expected a SchemaLimitError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    assert.equal(error.kind, 'invalid_request');
    return error;
  }
  assert.fail('expected a SchemaLimitError, got a value');
}

describe('bounded schema values', () => {
  test('minItems 1000 three deep is refused as too large, without building the value', () => {
    const budget = newBudget();
    refusal(() => valueFor(CUBE, seededRandom(1), { budget }), 'value_size');
    // The work done before the refusal stayed within the caps: counted as the value grew, never measured afterwards.
    assert.ok(budget.steps <= MAX_SCHEMA_GENERATION_STEPS + 1 && budget.chars <= MAX_SCHEMA_OUTPUT_CHARS + 64, JSON.stringify(budget));
    const error = refusal(() => simulateChat(format(CUBE)), 'value_size');
    assert.match(
      error.message,
      /^The JSON schema of the response format cannot be satisfied within the gateway's limits: .*(steps|tokens|characters)/,
    );
  });

  test('a $ref to itself is a $ref cycle, not a stack overflow', () => {
    const error = refusal(() => simulateChat(format(SELF)), 'ref_cycle');
    assert.equal(
      error.message,
      "The JSON schema of the response format cannot be satisfied within the gateway's limits: $ref '#' leads back to itself without nesting, so it never resolves to a value.",
    );
    refusal(() => valueFor({ allOf: [{ $ref: '#/$defs/a' }], $defs: { a: { anyOf: [{ $ref: '#' }] } } }, seededRandom(1)), 'ref_cycle');
  });

  test('required recursion that can never end is refused; optional recursion just stops', () => {
    const error = refusal(() => simulateChat(toolCall(ENDLESS)), 'value_depth');
    assert.match(
      error.message,
      /^The parameters schema of tool 'fill' cannot be satisfied within the gateway's limits: a value would nest deeper than 64 levels/,
    );
    const optional: JsonSchema = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#' } }, required: ['name'] };
    const nullable: JsonSchema = { type: 'object', properties: { next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } }, required: ['next'] };
    const tree: JsonSchema = {
      type: 'object',
      properties: { left: { anyOf: [{ $ref: '#' }, { type: 'null' }] }, right: { anyOf: [{ $ref: '#' }, { type: 'null' }] } },
      required: ['left', 'right'],
    };
    for (const schema of [optional, nullable, tree]) {
      for (const seed of [1, 2, 3]) {
        const text = simulateChat(format(schema, { seed })).choices[0]!.text;
        assert.deepEqual(validateAgainstSchema(JSON.parse(text), schema), [], text);
      }
    }
  });

  test('work spent on anyOf options that are discarded counts too: long strings before an endless $ref stop at the step cap', () => {
    // Each option builds a 350,000-character string, then recurses without end; its tokens and characters are given back, its steps are not.
    const option: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string', minLength: 350_000 }, b: { $ref: '#/$defs/loop' } },
      required: ['a', 'b'],
    };
    const loop: JsonSchema = { type: 'object', properties: { x: { $ref: '#/$defs/loop' } }, required: ['x'] };
    const schema: JsonSchema = {
      type: 'object',
      properties: { v: { anyOf: Array.from({ length: 1000 }, () => ({ $ref: '#/$defs/opt' })) } },
      required: ['v'],
      $defs: { opt: option, loop },
    };
    const budget = newBudget();
    const error = refusal(() => valueFor(schema, seededRandom(1), { budget }), 'value_size');
    assert.match(error.message, new RegExp(`more than ${MAX_SCHEMA_GENERATION_STEPS} steps`));
    assert.equal(budget.steps, MAX_SCHEMA_GENERATION_STEPS + 1);
  });

  test('minLength 10^9 is refused at once', () => {
    const error = refusal(() => simulateChat(format(HUGE_STRING)), 'value_size');
    assert.match(error.message, /a string of minLength 1000000000 does not fit in 524288 characters/);
  });

  test("a response format past the request's output limit is cut there (finish reason length), exactly as before", () => {
    const schema: JsonSchema = {
      type: 'array',
      minItems: 40,
      items: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer' } }, required: ['name', 'n'] },
    };
    const whole = simulateChat(format(schema, { seed: 4 })).choices[0]!;
    const cut = simulateChat(format(schema, { seed: 4, maxTokens: 25 })).choices[0]!;
    assert.equal(cut.finishReason, 'length');
    assert.equal(cut.text, streamPieces(whole.text).slice(0, 25).join(''));
    // A hostile schema is refused even with a small output limit: it cannot be satisfied at all.
    refusal(() => simulateChat(format(CUBE, { maxTokens: 10 })), 'value_size');
  });

  test("tool arguments must fit the request's output limit whole: the smallest arguments are tried, then refused", () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { tags: { type: 'array', minItems: 30, items: { type: 'string' } } },
      required: ['tags'],
    };
    const error = refusal(() => simulateChat(toolCall(schema, { maxTokens: 20 })), 'output_limit');
    assert.equal(
      error.message,
      "The parameters schema of tool 'fill' cannot be satisfied within the request's output token limit: the value needs more than 20 tokens.",
    );
    const args = simulateChat(toolCall(schema, { maxTokens: 200 })).choices[0]!.toolCalls[0]!.arguments;
    assert.deepEqual(validateAgainstSchema(JSON.parse(args), schema), []);
  });

  test('the hard caps hold for a whole request, across its n choices', () => {
    const schema: JsonSchema = { type: 'array', minItems: 300, maxItems: 300, items: { type: 'string', minLength: 30, maxLength: 30 } };
    const one = simulateChat(format(schema)).choices[0]!.text;
    assert.ok(one.length * 128 > MAX_SCHEMA_OUTPUT_CHARS * 2, 'the test needs choices that overflow the cap together');
    refusal(() => simulateChat(format(schema, { n: 128 })), 'value_size');
  });

  test('schema documents deeper than MAX_SCHEMA_DEPTH or larger than MAX_SCHEMA_NODES are refused before any walk recurses', () => {
    assert.doesNotThrow(() => checkSchemaDocument(nested(MAX_SCHEMA_DEPTH / 2 - 1), 'schema'));
    const deep = nested(5000);
    const error = refusal(() => simulateChat(format(deep)), 'schema_depth');
    assert.equal(error.message, `The JSON schema of the response format is nested deeper than ${MAX_SCHEMA_DEPTH} levels.`);
    refusal(() => estimateInputTokens(toolCall(deep)), 'schema_depth');
    refusal(() => geminiSchemaToJsonSchema(deep, 'schema generationConfig.responseSchema'), 'schema_depth');
    const wide: JsonSchema = { type: 'string', enum: Array.from({ length: MAX_SCHEMA_NODES }, (_, i) => i) };
    assert.match(refusal(() => simulateChat(format(wide)), 'schema_size').message, /more than 10000 JSON values/);
  });
});

/** Random schemas of the supported subset, with hostile sizes, $refs to the root and to $defs, nested anyOf/allOf. */
const schemaArbitrary = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null') }),
    fc.record({ type: fc.constant('string'), minLength: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom(1e5, 1e7, 1e9)) }),
    fc.record({ type: fc.constant('string'), format: fc.constantFrom('date', 'date-time', 'email', 'uuid') }),
    fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 6, max: 50 }) }),
    fc.record({ enum: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { minLength: 1, maxLength: 3 }) }),
    fc.constantFrom<JsonSchema>({ $ref: '#' }, { $ref: '#/$defs/node' }),
  ),
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object'), tie('anyOf'), tie('allOf')),
  array: fc.record({
    type: fc.constant('array'),
    items: tie('schema'),
    minItems: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(100, 1000, 100_000)),
  }),
  object: fc.record({
    type: fc.constant('object'),
    properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('schema'), { maxKeys: 3 }),
    required: fc.subarray(['a', 'b', 'c']),
  }),
  anyOf: fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
  allOf: fc.record({ allOf: fc.tuple(tie('schema'), fc.constant({})) }),
})).schema as fc.Arbitrary<JsonSchema>;

describe('random schemas (property)', () => {
  test('every schema gives a valid value within the caps, or a SchemaLimitError; never a RangeError', () => {
    fc.assert(
      fc.property(
        schemaArbitrary,
        schemaArbitrary,
        fc.integer(),
        fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
        (body, node, seed, outputLimit) => {
          const schema: JsonSchema = { ...body, $defs: { node } };
          let value: unknown;
          try {
            value = valueFor(schema, seededRandom(seed), { outputLimit });
          } catch (error) {
            if (error instanceof SchemaLimitError) return;
            throw error;
          }
          const text = JSON.stringify(value);
          assert.ok(
            text.length <= MAX_SCHEMA_OUTPUT_CHARS && countTokens(text) <= Math.min(MAX_SCHEMA_OUTPUT_TOKENS, outputLimit ?? Infinity),
            text.slice(0, 200),
          );
          assert.deepEqual(validateAgainstSchema(value, schema), [], text.slice(0, 500));
        },
      ),
      { numRuns: 400 },
    );
  });
});

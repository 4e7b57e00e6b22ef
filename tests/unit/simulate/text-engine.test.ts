// Unit tests of the simulated text engine: the token estimate, stream pieces, determinism, echo, tools, JSON output, stop, length and n.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isEchoModel, simulateChat } from '../../../electron/gateway/providers/simulate/text/engine.ts';
import { valueFor } from '../../../electron/gateway/providers/simulate/text/json-schema-value.ts';
import { seededRandom } from '../../../electron/gateway/providers/simulate/text/seed.ts';
import { argumentFragments, streamPieces } from '../../../electron/gateway/protocols/neutral/stream-pieces.ts';
import { countTokens, estimateInputTokens, REQUEST_OVERHEAD, TURN_OVERHEAD } from '../../../electron/gateway/protocols/neutral/tokens.ts';
import type { ChatRequest, ToolSpec } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { validateAgainstSchema } from '../../helpers/json-schema-check.ts';

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'sim-chat',
  turns: [{ role: 'user', text }],
  ...extra,
});

const WEATHER: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
    },
    required: ['city', 'unit', 'days'],
    additionalProperties: false,
  },
};

describe('token estimate', () => {
  test('counts words and punctuation marks, not whitespace', () => {
    assert.equal(countTokens('Hello, world!'), 4);
    assert.equal(countTokens('   '), 0);
    assert.equal(countTokens("it's 42"), 4);
    assert.equal(countTokens('naïve café 42'), 3);
  });

  test('the input estimate is the turns plus TURN_OVERHEAD per turn (the system text counts as one) plus REQUEST_OVERHEAD', () => {
    assert.equal(estimateInputTokens(ask('one two')), REQUEST_OVERHEAD + TURN_OVERHEAD + 2);
    assert.equal(estimateInputTokens({ ...ask('one two'), system: 'be kind' }), REQUEST_OVERHEAD + 2 * TURN_OVERHEAD + 4);
  });

  test('the input estimate grows with every turn and with tools', () => {
    const one = estimateInputTokens(ask('Hello there'));
    const two = estimateInputTokens({
      ...ask('Hello there'),
      turns: [
        { role: 'user', text: 'Hi' },
        { role: 'user', text: 'Hello there' },
      ],
    });
    assert.ok(two > one);
    assert.ok(estimateInputTokens(ask('Hello there', { tools: [WEATHER] })) > one);
  });

  test('stream pieces are one token each and join back to the text', () => {
    const text = '  The answer, in short: 42 apples!\n';
    const pieces = streamPieces(text);
    assert.equal(pieces.join(''), text);
    assert.equal(pieces.length, countTokens(text));
    assert.deepEqual(streamPieces(''), ['']);
    for (const edge of ['Hello, world!  ', ' leading space', 'a\nb\n\n', '{"a": [1, 2]}', '   ']) {
      assert.equal(streamPieces(edge).join(''), edge);
      if (edge.trim() !== '') assert.equal(streamPieces(edge).length, countTokens(edge));
    }
    const json = '{"city":"Paris","days":3}';
    assert.equal(argumentFragments(json).join(''), json);
    assert.ok(argumentFragments(json).length > 1);
  });
});

describe('simulateChat', () => {
  test('the same request gives the same answer; another seed gives another one', () => {
    const request = ask('Tell me about rivers and mountains', { seed: 7 });
    const first = simulateChat(request);
    assert.deepEqual(simulateChat(structuredClone(request)), first);
    assert.notEqual(simulateChat({ ...request, seed: 8 }).choices[0]!.text, first.choices[0]!.text);
    assert.notEqual(simulateChat({ ...request, model: 'other' }).choices[0]!.text, first.choices[0]!.text);
  });

  test('answers in readable sentences about the words of the question', () => {
    const { text, finishReason } = simulateChat(ask('Explain photosynthesis')).choices[0]!;
    assert.equal(finishReason, 'stop');
    assert.match(text, /^[A-Z][^]*\.$/);
    assert.match(text.toLowerCase(), /photosynthesis/);
  });

  test('usage follows the estimate', () => {
    const request = ask('Tell me about bridges', { n: 2 });
    const result = simulateChat(request);
    assert.equal(result.usage.inputTokens, estimateInputTokens(request));
    assert.equal(
      result.usage.outputTokens,
      result.choices.reduce((sum, choice) => sum + countTokens(choice.text), 0),
    );
  });

  test('the echo model repeats the last user message verbatim', () => {
    assert.ok(isEchoModel('sim-echo') && isEchoModel('my-echo') && !isEchoModel('sim-chat'));
    const text = 'Repeat exactly:  {"a": 1}\n  ok?';
    const result = simulateChat({
      model: 'sim-echo',
      turns: [
        { role: 'user', text: 'first' },
        { role: 'assistant', text: 'x' },
        { role: 'user', text },
      ],
    });
    assert.equal(result.choices[0]!.text, text);
  });

  test('n choices differ from each other, each stable', () => {
    const request = ask('Describe the ocean', { n: 3 });
    const texts = simulateChat(request).choices.map((choice) => choice.text);
    assert.equal(texts.length, 3);
    assert.equal(new Set(texts).size, 3);
    assert.deepEqual(
      simulateChat(request).choices.map((choice) => choice.text),
      texts,
    );
  });

  test('maxTokens cuts the answer to a prefix of that many tokens with finish reason length', () => {
    const full = simulateChat(ask('Describe the ocean')).choices[0]!;
    const cut = simulateChat(ask('Describe the ocean', { maxTokens: 5 })).choices[0]!;
    assert.equal(cut.finishReason, 'length');
    assert.equal(countTokens(cut.text), 5);
    assert.ok(full.text.startsWith(cut.text));
    const echo = (maxTokens: number) => simulateChat(ask('alpha beta gamma delta', { model: 'sim-echo', maxTokens })).choices[0]!;
    assert.deepEqual(echo(3), { text: 'alpha beta gamma', toolCalls: [], finishReason: 'length' });
    assert.deepEqual(echo(4), { text: 'alpha beta gamma delta', toolCalls: [], finishReason: 'stop' }, 'exactly the limit is not cut');
  });

  test('a stop sequence cuts before it and is reported', () => {
    const full = simulateChat(ask('Describe the ocean')).choices[0]!.text;
    const word = full.split(' ')[3]!;
    const cut = simulateChat(ask('Describe the ocean', { stop: ['zzz-never', word] })).choices[0]!;
    assert.equal(cut.finishReason, 'stop_sequence');
    assert.equal(cut.stopSequence, word);
    assert.equal(cut.text, full.slice(0, full.indexOf(word)));
    assert.ok(!cut.text.includes(word));
    const earliest = simulateChat(ask('alpha beta gamma delta', { model: 'sim-echo', stop: ['delta', 'beta'] })).choices[0]!;
    assert.deepEqual(earliest, { text: 'alpha ', toolCalls: [], finishReason: 'stop_sequence', stopSequence: 'beta' });
  });

  test('tools: named in the message (auto), forced by name or required ⇒ schema-valid arguments; none ⇒ text', () => {
    const cases: Partial<ChatRequest>[] = [{}, { toolChoice: 'auto' }, { toolChoice: 'required' }, { toolChoice: { name: 'get_weather' } }];
    for (const extra of cases) {
      const choice = simulateChat(ask('Use get_weather for Paris', { tools: [WEATHER], ...extra })).choices[0]!;
      assert.equal(choice.finishReason, 'tool_calls');
      assert.equal(choice.toolCalls.length, 1);
      const call = choice.toolCalls[0]!;
      assert.equal(call.name, 'get_weather');
      assert.match(call.id, /^call_[A-Za-z0-9]+$/);
      assert.deepEqual(validateAgainstSchema(JSON.parse(call.arguments), WEATHER.parameters), []);
    }
    const spaced = simulateChat(ask('what is the weather? get weather for Oslo', { tools: [WEATHER] })).choices[0]!;
    assert.equal(spaced.toolCalls[0]?.name, 'get_weather', 'a name with _ is also found written with spaces');
    const unnamed = simulateChat(ask('Hello there', { tools: [WEATHER], toolChoice: 'auto' })).choices[0]!;
    assert.equal(unnamed.toolCalls.length, 0);
    const none = simulateChat(ask('Use get_weather now', { tools: [WEATHER], toolChoice: 'none' })).choices[0]!;
    assert.equal(none.toolCalls.length, 0);
    assert.equal(none.finishReason, 'stop');
  });

  test('after a tool result the answer is text that mentions the result, even when a tool is required', () => {
    const call = simulateChat(ask('Use get_weather', { tools: [WEATHER] })).choices[0]!.toolCalls[0]!;
    const result = simulateChat({
      model: 'sim-chat',
      tools: [WEATHER],
      toolChoice: 'required',
      turns: [
        { role: 'user', text: 'Use get_weather' },
        { role: 'assistant', text: '', toolCalls: [call] },
        { role: 'tool', toolCallId: call.id, name: 'get_weather', text: 'sunny and 21 degrees' },
      ],
    }).choices[0]!;
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.toolCalls.length, 0);
    assert.match(result.text, /sunny and 21 degrees/);
  });

  test('json_object gives a JSON object; json_schema gives JSON valid against the schema', () => {
    const object = JSON.parse(simulateChat(ask('List fruits', { format: { type: 'json_object' } })).choices[0]!.text);
    assert.ok(object && typeof object === 'object' && !Array.isArray(object));
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 3, maxLength: 12 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2, maxItems: 3 },
        when: { type: 'string', format: 'date-time' },
        email: { type: 'string', format: 'email' },
        score: { type: 'number', minimum: 0, maximum: 1 },
        note: { type: ['string', 'null'] },
        kind: { const: 'fruit' },
        owner: { $ref: '#/$defs/person' },
        either: { anyOf: [{ type: 'integer', minimum: 5, maximum: 6 }, { type: 'null' }] },
      },
      required: ['name', 'tags', 'when', 'email', 'score', 'note', 'kind', 'owner', 'either'],
      additionalProperties: false,
      $defs: { person: { type: 'object', properties: { age: { type: 'integer', minimum: 18, maximum: 99 } }, required: ['age'] } },
    };
    for (const seed of [1, 2, 3, 4, 5]) {
      const text = simulateChat(ask('Describe a fruit', { seed, format: { type: 'json_schema', schema } })).choices[0]!.text;
      assert.deepEqual(validateAgainstSchema(JSON.parse(text), schema), [], text);
    }
  });
});

describe('schema values', () => {
  const valid = (schema: Record<string, unknown>, seeds = 25) => {
    for (let seed = 0; seed < seeds; seed++) {
      const value = valueFor(schema, seededRandom(seed));
      assert.deepEqual(validateAgainstSchema(value, schema), [], JSON.stringify(value));
    }
  };

  test('satisfy nested, referenced, enumerated and bounded schemas', () => {
    valid({
      type: 'object',
      properties: {
        kind: { enum: ['a', 'b'] },
        count: { type: 'integer', minimum: 5, maximum: 6 },
        ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        when: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        site: { type: 'string', format: 'uri' },
        items: { type: 'array', minItems: 3, items: { $ref: '#/definitions/item' } },
        maybe: { anyOf: [{ type: 'null' }, { type: 'string', maxLength: 3 }] },
        shape: {
          oneOf: [
            { type: 'string', enum: ['square'] },
            { type: 'integer', minimum: 3 },
          ],
        },
        optional: { type: 'string', nullable: true },
        fixed: { const: 42 },
      },
      required: ['kind', 'count', 'ratio', 'when', 'day', 'site', 'items', 'maybe', 'shape', 'optional', 'fixed'],
      additionalProperties: false,
      definitions: { item: { type: 'object', properties: { name: { type: 'string', minLength: 12 } }, required: ['name'] } },
    });
  });

  test('satisfy multipleOf, uniqueItems and required names that have no declared property', () => {
    valid({
      type: 'object',
      properties: {
        step: { type: 'integer', minimum: 1, maximum: 100, multipleOf: 7 },
        half: { type: 'number', minimum: 0, maximum: 10, multipleOf: 0.5 },
        picks: { type: 'array', items: { enum: ['x', 'y', 'z'] }, minItems: 3, maxItems: 3, uniqueItems: true },
      },
      required: ['step', 'half', 'picks', 'undeclared'],
    });
    valid({ type: 'object', required: ['score'], additionalProperties: { type: 'integer', minimum: 1, maximum: 3 } });
  });
});

describe('validateAgainstSchema', () => {
  test('reports what is wrong', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'integer', maximum: 3 } },
      required: ['a', 'b'],
      additionalProperties: false,
    };
    const errors = validateAgainstSchema({ a: 4.5, c: 1 }, schema);
    assert.ok(errors.some((e) => e.includes("'b'")));
    assert.ok(errors.some((e) => e.includes("'c'")));
    assert.ok(errors.some((e) => e.startsWith('$.a')));
    assert.deepEqual(validateAgainstSchema({ a: 2, b: null }, { ...schema, properties: { ...schema.properties, b: {} } }), []);
  });
});

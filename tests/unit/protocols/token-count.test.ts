// The documented token estimate: the one-pass count over ASCII text agrees with the estimate's pattern on any text; a relayed request's estimate is made lazily.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ChatRequest, JsonSchema } from '../../../electron/gateway/protocols/neutral/chat.ts';
import { MAX_SCHEMA_DEPTH, SchemaLimitError } from '../../../electron/gateway/protocols/neutral/schema-limits.ts';
import { countRequestTokens, countTokens, relayInputEstimate, TOKEN_PATTERN } from '../../../electron/gateway/protocols/neutral/tokens.ts';

const byPattern = (text: string) => [...text.matchAll(TOKEN_PATTERN)].length;

test('words and punctuation marks count one each, whitespace is free', () => {
  assert.equal(countTokens('Hello, world!'), 4);
  assert.equal(countTokens('  snake_case\tand 42\n'), 3);
  assert.equal(countTokens(''), 0);
  assert.equal(countTokens('\u0000\u007f'), 2, 'control characters are tokens of their own');
  assert.equal(countTokens('naïve café'), 2, 'letters beyond ASCII belong to their word');
  assert.equal(countTokens('ok 👍🏽!'), 4, 'an emoji and its modifier count as marks');
});

test('the count of any text is the number of matches of the pattern', () => {
  const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)), maxLength: 200 });
  const mixed = fc.string({
    unit: fc.constantFrom('a', 'Z', '9', '_', ' ', '\n', ',', 'é', '中', '\u0301', '\u00a0', '😀', '\u2028'),
    maxLength: 60,
  });
  fc.assert(
    fc.property(fc.oneof(ascii, mixed, fc.string({ unit: 'binary', maxLength: 80 })), (text) => {
      assert.equal(countTokens(text), byPattern(text));
    }),
    { numRuns: 2000, seed: 2411 },
  );
});

test('a relayed request refuses a schema past the limits before it is sent, and counts its tokens only when asked, once', () => {
  const deep = (depth: number): JsonSchema => (depth === 0 ? { type: 'string' } : { type: 'object', properties: { a: deep(depth - 1) } });
  const request = (parameters: JsonSchema): ChatRequest => ({
    model: 'm',
    turns: [{ role: 'user', text: 'Hello, world!' }],
    tools: [{ name: 'f', parameters }],
  });
  assert.throws(() => relayInputEstimate(request(deep(MAX_SCHEMA_DEPTH + 1))), SchemaLimitError);
  const asked = request(deep(2));
  const estimate = relayInputEstimate(asked);
  assert.equal(estimate(), countRequestTokens(asked));
  asked.turns[0]!.text = 'changed after the first count';
  assert.equal(estimate(), countRequestTokens(request(deep(2))), 'counted once');
});

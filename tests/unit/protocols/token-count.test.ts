// The documented token estimate: the one-pass count agrees with the estimate's pattern on any text and never overflows on an unbroken word of millions of characters; a relayed request's estimate is made lazily.
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

test('the count of any text of whole Unicode (astral letters and marks, lone surrogates) is the number of matches of the pattern', () => {
  const unicode = fc.string({
    unit: fc.oneof(
      fc.constantFrom(' ', 'a', '\u0301', '\u3000', '\ud800', '\udc00'),
      fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
    ),
    maxLength: 80,
  });
  fc.assert(
    fc.property(unicode, (text) => {
      assert.equal(countTokens(text), byPattern(text));
    }),
    { numRuns: 3000, seed: 2511 },
  );
});

test('an unbroken word of 8 million characters is one token, where the pattern itself overflows its stack', () => {
  const cjk = '\u6c49'.repeat(8_000_000);
  assert.throws(() => byPattern(cjk), RangeError, 'the pattern no longer overflows: this test proves nothing');
  assert.equal(countTokens(cjk), 1);
  assert.equal(countTokens(`${'a'.repeat(8_000_000)}\u6c49!`), 2);
  assert.equal(countTokens(`\ud840\udc00`.repeat(4_000_000)), 1, 'an astral CJK letter belongs to its word');
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

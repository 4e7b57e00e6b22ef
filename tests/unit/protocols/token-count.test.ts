// The documented token estimate: the one-pass count over ASCII text agrees with the estimate's pattern on any text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { countTokens, TOKEN_PATTERN } from '../../../electron/gateway/protocols/neutral/tokens.ts';

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

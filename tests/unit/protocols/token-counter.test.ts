// The streaming token counter: any text cut into any pieces (inside words, inside surrogate pairs) counts as the whole text does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TokenCounter } from '../../../electron/gateway/protocols/neutral/token-counter.ts';
import { countTokens } from '../../../electron/gateway/protocols/neutral/tokens.ts';

/** `text` cut at the code-unit offsets `cuts` (sorted, deduplicated, any of them inside a character). */
function piecesOf(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of at) {
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  pieces.push(text.slice(from));
  return pieces;
}

test('a word split across pieces counts once; whitespace and marks between pieces count as in the whole text', () => {
  const counter = new TokenCounter();
  for (const piece of ['Hel', 'lo', ', wor', 'ld', '!', ' ', '中', '文']) counter.add(piece);
  assert.equal(counter.count, countTokens('Hello, world! 中文'));
  assert.equal(counter.count, 5);
});

test('an emoji split between its two surrogates is one token', () => {
  const counter = new TokenCounter();
  counter.add('ok \ud83d');
  assert.equal(counter.count, 2, 'the half character alone counts as the mark it would be');
  counter.add('\ude00!');
  assert.equal(counter.count, countTokens('ok 😀!'));
});

test('any text in any pieces counts as countTokens of the whole', () => {
  const text = fc.string({
    unit: fc.constantFrom('a', 'Z', '9', '_', ' ', '\n', ',', 'é', '中', '\u0301', '\u00a0', '😀', '\u2028', '\ud83d', '\ude00'),
    maxLength: 60,
  });
  fc.assert(
    fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (whole, cuts) => {
      const counter = new TokenCounter();
      for (const piece of piecesOf(whole, cuts)) counter.add(piece);
      assert.equal(counter.count, countTokens(whole));
    }),
    { numRuns: 3000, seed: 2611 },
  );
});

// Stream pieces: one per match of the token pattern, joined back to the text, cut lazily and in one linear pass however long a word; the first pieces of an answer cut to a token limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { eachStreamPiece, firstPieces, streamPieces } from '../../../electron/gateway/protocols/neutral/stream-pieces.ts';
import { TOKEN_PATTERN } from '../../../electron/gateway/protocols/neutral/tokens.ts';

const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(' ', '\n', 'a', '_', ',', '\u0301', '\u00a0', '\ud800', '\udc00', '\u6c49'),
    fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
  ),
  maxLength: 60,
});

/** The pieces as the pattern cuts them: each match with the whitespace before it, trailing whitespace on the last. */
function piecesByPattern(value: string): string[] {
  const ends = [...value.matchAll(TOKEN_PATTERN)].map((match) => match.index + match[0].length);
  if (ends.length === 0) return [value];
  ends[ends.length - 1] = value.length;
  return ends.map((end, index) => value.slice(index === 0 ? 0 : ends[index - 1], end));
}

test('the pieces of any text are the pattern’s tokens, each with the whitespace before it', () => {
  fc.assert(
    fc.property(text, (value) => {
      assert.deepEqual(streamPieces(value), piecesByPattern(value));
      assert.deepEqual([...eachStreamPiece(value)], streamPieces(value));
    }),
    { numRuns: 3000, seed: 2512 },
  );
});

test('the first pieces of a text are its pieces cut to a count, or nothing when it has no more', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 0, max: 12 }), (value, count) => {
      const pieces = streamPieces(value);
      assert.equal(firstPieces(value, count), pieces.length > count ? pieces.slice(0, count).join('') : undefined);
    }),
    { numRuns: 3000, seed: 2513 },
  );
});

test('an unbroken word of 8 million characters is one piece, where the pattern overflows its stack', () => {
  const word = '\u6c49'.repeat(8_000_000);
  assert.throws(() => [...word.matchAll(TOKEN_PATTERN)], RangeError, 'the pattern no longer overflows: this test proves nothing');
  assert.deepEqual(streamPieces(` ${word} `), [` ${word} `]);
  assert.equal(firstPieces(`${word} and more`, 1), word);
});

// Word runs of the simulator (embedding terms, topic words): the same words the plain regular expressions find, found slice by slice so an unbroken word of 8 million characters cannot overflow.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { runPattern, runsOf } from '../../../electron/gateway/providers/simulate/word-runs.ts';
import { terms } from '../../../electron/gateway/providers/simulate/text-features.ts';
import { MAX_TOPIC_WORD_CHARS, topicWords } from '../../../electron/gateway/providers/simulate/text/sentences.ts';

const BIG_WORD = '\u6c49'.repeat(8_000_000);

test('runs are exactly the matches of the regular expression they stand for, across slice boundaries', () => {
  const word = runPattern('\\p{L}', "[\\p{L}\\p{N}'-]");
  const unit = fc.oneof(
    fc.constantFrom('a', 'Z', '9', "'", '-', ' ', '\u6c49', '\u0301'),
    fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
  );
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 60 }), fc.nat(9000), (text, long) => {
      const value = `${text}${'b'.repeat(long)}${text}`;
      assert.deepEqual(runsOf(value, word), value.match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? []);
    }),
    { numRuns: 300, seed: 2514 },
  );
});

test('an unbroken word of 8 million characters is one embedding term and a topic word cut to its start', () => {
  assert.throws(
    () => BIG_WORD.match(/[\p{L}\p{N}]+/gu),
    RangeError,
    'the regular expression no longer overflows: this test proves nothing',
  );
  const found = terms(`hello ${BIG_WORD} world`);
  assert.equal(found.length, 3);
  assert.equal(found[1]!.length, BIG_WORD.length);
  assert.deepEqual(topicWords(`${BIG_WORD} gardens`), ['\u6c49'.repeat(MAX_TOPIC_WORD_CHARS), 'gardens']);
});

test('topic words are the first eight content words, as before', () => {
  assert.deepEqual(topicWords('Tell me about the rivers and mountains of Norway, rivers again'), [
    'rivers',
    'mountains',
    'norway',
    'again',
  ]);
  const many = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet';
  assert.deepEqual(topicWords(many), many.split(' ').slice(0, 8));
});
